package dev.pigeonhole.domain.model;

/**
 * No invitation to the chat is waiting for the user: none was made, it was answered already, it
 * lapsed, or the chat or its inviter is gone.
 */
public final class NoInvitationException extends DomainException {

    public NoInvitationException(UserId user, ChatId chat) {
        super("no invitation to chat " + chat + " is waiting for " + user);
    }
}
