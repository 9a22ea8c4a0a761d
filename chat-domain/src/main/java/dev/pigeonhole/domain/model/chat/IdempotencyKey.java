package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.Identifiers;
import dev.pigeonhole.domain.model.UserId;

import java.time.Duration;

/**
 * Names one send, so that sending it again is harmless: a client that timed out waiting for an
 * answer cannot know whether its message was stored, and retries with the same key. Scoped to
 * the sender and the chat, and remembered for {@link #WINDOW} of the send's time.
 */
public record IdempotencyKey(String value) {

    /** Long enough for any sensible retry, short enough that a chat's memory of keys stays small. */
    public static final Duration WINDOW = Duration.ofHours(24);

    public IdempotencyKey {
        Identifiers.check("idempotency key", value);
    }

    public static IdempotencyKey of(String value) {
        return new IdempotencyKey(value);
    }

    /**
     * The key as one sender's: "sender key". Ids hold no space, so no two senders' keys can ever
     * read the same; this is how every store names a remembered send.
     */
    public String scopedTo(UserId sender) {
        return sender.value() + " " + value;
    }

    @Override
    public String toString() {
        return value;
    }
}
