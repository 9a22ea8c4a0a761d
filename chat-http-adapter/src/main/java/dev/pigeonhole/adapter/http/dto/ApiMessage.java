package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * A message as this API's clients read it: {@code {"id":1,"ts":"2026-11-21T10:00:00.123Z","sender":"alice","message":"hi"}}.
 * A chat's and a mailbox's look the same; the id is the message's place in its chat, or in its
 * owner's mailbox.
 */
public record ApiMessage(long id, String ts, String sender, String message) {

    /** Always milliseconds, so timestamps compare as strings and line up in a client's list. */
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    public static ApiMessage from(Message message) {
        return new ApiMessage(message.id(), timestamp(message.sentAt()), message.sender().value(), message.body());
    }

    public static ApiMessage from(DirectMessage message) {
        return new ApiMessage(message.id(), timestamp(message.sentAt()), message.sender().value(), message.body());
    }

    public static List<ApiMessage> from(List<Message> messages) {
        return messages.stream().map(ApiMessage::from).toList();
    }

    static String timestamp(Instant at) {
        return TIMESTAMP.format(at);
    }
}
