package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;

import java.util.Objects;

/**
 * A send's outcome: the message it stored, or, for a send repeated under an idempotency key, the
 * message stored the first time ({@link RememberedSend#replay}), in which case nothing was stored
 * or announced again.
 */
public record Sent(ChatId chat, Message message, boolean repeat) implements ChatChange {

    public Sent {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(message, "message");
    }
}
