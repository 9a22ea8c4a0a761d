package dev.pigeonhole.domain.model;

/** A request that can never succeed as sent: a blank message, a negative limit, and the like. */
public final class InvalidInputException extends DomainException {

    public InvalidInputException(String message) {
        super(message);
    }
}
