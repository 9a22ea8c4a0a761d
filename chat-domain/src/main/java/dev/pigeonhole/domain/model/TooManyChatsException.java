package dev.pigeonhole.domain.model;

/** The user is in as many chats as one user may be; it must leave one before it joins another. */
public final class TooManyChatsException extends DomainException {

    public TooManyChatsException(UserId user, int max) {
        super(user + " is in " + max + " chats, the most one user may be in; leave one first");
    }
}
