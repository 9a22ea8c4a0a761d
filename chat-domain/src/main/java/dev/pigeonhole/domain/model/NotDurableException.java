package dev.pigeonhole.domain.model;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The store made the write but could not confirm, in the time it was given, that the write would
 * survive the loss of the node that took it: fewer copies acknowledged it than the operator asked
 * for. Unlike {@link StoreUnavailableException}, the write is known to have happened; it may yet
 * be kept, or be lost in a failover. A write that created a message carries the message's id, so
 * the client can tell its retry under the same idempotency key answers that very message rather
 * than a second one.
 */
public final class NotDurableException extends DomainException {

    private final OptionalLong messageId;

    public NotDurableException(String message, OptionalLong messageId) {
        super(message);
        this.messageId = Objects.requireNonNull(messageId, "messageId");
    }

    /** The id the write gave its message, when it created one. */
    public OptionalLong messageId() {
        return messageId;
    }
}
