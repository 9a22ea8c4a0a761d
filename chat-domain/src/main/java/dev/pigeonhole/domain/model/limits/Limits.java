package dev.pigeonhole.domain.model.limits;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MessageText;

import java.util.Objects;

/**
 * The bounds that keep every store, and every answer, finite. Each one is configuration;
 * {@link #DEFAULTS} are the values docs/DESIGN.md §3 and §5 promise.
 *
 * @param maxBodyLength   characters in one message body
 * @param maxMembers      members of one chat
 * @param maxRetained     messages one chat keeps; older ones are dropped and readers told of the
 *                        gap. Also how many idempotency keys it remembers
 * @param mailboxCapacity messages one mailbox holds before it rejects deliveries
 * @param pending         what one fetch of pending messages, or one live catch-up, holds in all
 * @param rates           how fast each user may write
 */
public record Limits(int maxBodyLength, int maxMembers, int maxRetained, int mailboxCapacity, PendingBudget pending,
                     RateLimits rates) {

    public static final Limits DEFAULTS = new Limits(4_096, 1_000, 10_000, 10_000, PendingBudget.DEFAULTS,
            RateLimits.DEFAULTS);

    public Limits {
        positive("maxBodyLength", maxBodyLength);
        positive("maxMembers", maxMembers);
        positive("maxRetained", maxRetained);
        positive("mailboxCapacity", mailboxCapacity);
        Objects.requireNonNull(pending, "pending");
        Objects.requireNonNull(rates, "rates");
    }

    public Limits withMaxRetained(int value) {
        return new Limits(maxBodyLength, maxMembers, value, mailboxCapacity, pending, rates);
    }

    public Limits withMaxMembers(int value) {
        return new Limits(maxBodyLength, value, maxRetained, mailboxCapacity, pending, rates);
    }

    public Limits withMailboxCapacity(int value) {
        return new Limits(maxBodyLength, maxMembers, maxRetained, value, pending, rates);
    }

    public Limits withMaxBodyLength(int value) {
        return new Limits(value, maxMembers, maxRetained, mailboxCapacity, pending, rates);
    }

    public Limits withPending(PendingBudget value) {
        return new Limits(maxBodyLength, maxMembers, maxRetained, mailboxCapacity, value, rates);
    }

    public Limits withRates(RateLimits value) {
        return new Limits(maxBodyLength, maxMembers, maxRetained, mailboxCapacity, pending, value);
    }

    /** Holds the configured length limit against a body whose shape was checked already ({@link MessageText}). */
    public void checkBodyLength(String body) {
        if (body.length() > maxBodyLength) {
            throw new InvalidInputException("message is " + body.length() + " characters long; the limit is "
                    + maxBodyLength);
        }
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new InvalidInputException(name + " must be at least 1, not " + value);
        }
    }
}
