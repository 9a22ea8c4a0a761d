package dev.pigeonhole.domain.model;

/** A chat was to be created under an id that is taken. */
public final class ChatAlreadyExistsException extends DomainException {

    public ChatAlreadyExistsException(ChatId chat) {
        super("chat " + chat + " already exists: choose another id, or leave it out to get a new one");
    }
}
