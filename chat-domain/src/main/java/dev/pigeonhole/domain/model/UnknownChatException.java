package dev.pigeonhole.domain.model;

/** The chat does not exist, or no longer does: its last member left. */
public final class UnknownChatException extends DomainException {

    public UnknownChatException(ChatId chat) {
        super("chat " + chat + " does not exist");
    }
}
