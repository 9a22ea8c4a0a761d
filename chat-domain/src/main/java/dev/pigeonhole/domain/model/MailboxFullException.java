package dev.pigeonhole.domain.model;

/** A mailbox holds as many messages as its capacity allows ({@code Limits.mailboxCapacity}). */
public final class MailboxFullException extends DomainException {

    private final UserId owner;
    private final int capacity;

    public MailboxFullException(UserId owner, int capacity) {
        super("the mailbox of " + owner + " is full (" + capacity + " messages): try again after they read it");
        this.owner = owner;
        this.capacity = capacity;
    }

    public UserId owner() {
        return owner;
    }

    public int capacity() {
        return capacity;
    }
}
