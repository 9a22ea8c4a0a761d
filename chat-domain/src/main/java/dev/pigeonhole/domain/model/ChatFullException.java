package dev.pigeonhole.domain.model;

/** A chat already has as many members as {@link Limits#maxMembers()} allows. */
public final class ChatFullException extends DomainException {

    public ChatFullException(ChatId chat, int maxMembers) {
        super("chat " + chat + " is full: it may have at most " + maxMembers + " members");
    }
}
