package dev.pigeonhole.domain.model;

/** A user id, chat id, lock or channel name that does not match the allowed shape. */
public final class InvalidIdException extends DomainException {

    public InvalidIdException(String message) {
        super(message);
    }
}
