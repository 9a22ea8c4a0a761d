package dev.pigeonhole.domain.model;

import java.util.Objects;

/**
 * A delivery's outcome: the message as the recipient's mailbox stored it, with its id, and how
 * many messages the mailbox held with it.
 *
 * @param depth for monitoring only: telling the sender how much its recipient has not read would
 *              leak what is not theirs to know
 */
public record Delivered(UserId recipient, DirectMessage message, int depth) {

    public Delivered {
        Objects.requireNonNull(recipient, "recipient");
        Objects.requireNonNull(message, "message");
        if (depth < 1) {
            throw new IllegalArgumentException("a mailbox holds at least the message just delivered, not " + depth);
        }
    }

    /** What the store announces, inside the step that stores the message, on the recipient's own channel. */
    public LiveEvent event() {
        return new LiveEvent.DirectMessageDelivered(recipient, message);
    }
}
