package dev.pigeonhole.domain.model;

/**
 * The bounds that keep every store finite. Each one is configuration; {@link #DEFAULTS} are the
 * values docs/DESIGN.md §3 promises.
 *
 * @param maxBodyLength   characters in one message body
 * @param maxMembers      members of one chat
 * @param maxRetained     messages one chat keeps; older ones are dropped and readers told of the gap
 * @param mailboxCapacity messages one mailbox holds before it rejects deliveries
 */
public record Limits(int maxBodyLength, int maxMembers, int maxRetained, int mailboxCapacity) {

    public static final Limits DEFAULTS = new Limits(4_096, 1_000, 10_000, 10_000);

    public Limits {
        positive("maxBodyLength", maxBodyLength);
        positive("maxMembers", maxMembers);
        positive("maxRetained", maxRetained);
        positive("mailboxCapacity", mailboxCapacity);
    }

    public Limits withMaxRetained(int value) {
        return new Limits(maxBodyLength, maxMembers, value, mailboxCapacity);
    }

    public Limits withMaxMembers(int value) {
        return new Limits(maxBodyLength, value, maxRetained, mailboxCapacity);
    }

    public Limits withMailboxCapacity(int value) {
        return new Limits(maxBodyLength, maxMembers, maxRetained, value);
    }

    public Limits withMaxBodyLength(int value) {
        return new Limits(value, maxMembers, maxRetained, mailboxCapacity);
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
