package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.DirectMessage;
import java.util.List;

/** What a take removed from the caller's mailbox, oldest first. */
public record TakenJson(List<DirectMessageJson> messages) {

    public static TakenJson from(List<DirectMessage> messages) {
        return new TakenJson(messages.stream().map(DirectMessageJson::from).toList());
    }
}
