package dev.pigeonhole.domain.model;

/** The user tried to join a private chat by itself: only one of its members can add it. */
public final class PrivateChatException extends DomainException {

    public PrivateChatException(UserId user, ChatId chat) {
        super("chat " + chat + " is private: " + user + " can only be added by one of its members");
    }
}
