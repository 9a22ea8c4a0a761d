package dev.pigeonhole.domain.model.mailbox;

import dev.pigeonhole.domain.model.UserId;

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
}
