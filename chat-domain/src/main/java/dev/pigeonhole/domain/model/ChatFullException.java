package dev.pigeonhole.domain.model;

/** A chat already has as many members as its limit allows ({@code Limits.maxMembers}). */
public final class ChatFullException extends DomainException {

    public ChatFullException(ChatId chat, int maxMembers) {
        super("chat " + chat + " is full: it may have at most " + maxMembers + " members");
    }
}
