package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.DirectMessage;

/** A mailbox message; it has no id, its place in the mailbox is its order. */
public record DirectMessageJson(String ts, String sender, String message) {

    public static DirectMessageJson from(DirectMessage message) {
        return new DirectMessageJson(MessageJson.timestamp(message.sentAt()), message.sender().value(), message.body());
    }
}
