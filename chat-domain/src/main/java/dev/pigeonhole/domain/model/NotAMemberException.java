package dev.pigeonhole.domain.model;

/** The user is not a member of the chat, so may not send to, read or acknowledge in it. */
public final class NotAMemberException extends DomainException {

    private final UserId user;
    private final ChatId chat;

    public NotAMemberException(UserId user, ChatId chat) {
        super(user + " is not a member of chat " + chat);
        this.user = user;
        this.chat = chat;
    }

    public UserId user() {
        return user;
    }

    public ChatId chat() {
        return chat;
    }
}
