package dev.pigeonhole.domain.model;

/** The user is not a member of the chat, so may not send to, read or acknowledge in it. */
public final class NotAMemberException extends DomainException {

    public NotAMemberException(UserId user, ChatId chat) {
        super(user + " is not a member of chat " + chat);
    }
}
