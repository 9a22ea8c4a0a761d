package dev.pigeonhole.domain.model;

/**
 * The shape every message body has, checked where a body enters: in the commands and the values
 * that carry one. Its length limit is configuration, which the services hold against it
 * ({@code Limits.checkBodyLength}).
 */
public final class MessageText {

    private MessageText() {
    }

    public static void check(String body) {
        if (body == null) {
            throw new InvalidInputException("message is missing");
        }
        if (body.isBlank()) {
            throw new InvalidInputException("message is blank: send at least one visible character");
        }
    }
}
