package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * A message on the wire: {@code {"id":1,"ts":"2026-11-21T10:00:00.123Z","sender":"alice","message":"hi"}}.
 * A chat's and a mailbox's look the same; the id is the message's place in its chat, or in its
 * owner's mailbox.
 */
public record MessageJson(long id, String ts, String sender, String message) {

    /** Always milliseconds, so timestamps compare as strings and line up in a client's list. */
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    public static MessageJson from(Message message) {
        return new MessageJson(message.id(), timestamp(message.sentAt()), message.sender().value(), message.body());
    }

    public static MessageJson from(DirectMessage message) {
        return new MessageJson(message.id(), timestamp(message.sentAt()), message.sender().value(), message.body());
    }

    public static List<MessageJson> from(List<Message> messages) {
        return messages.stream().map(MessageJson::from).toList();
    }

    static String timestamp(Instant at) {
        return TIMESTAMP.format(at);
    }
}
