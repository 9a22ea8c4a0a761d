package dev.pigeonhole.domain.model;

/**
 * The shape every message body has. Its length limit is configuration ({@link Limits}), so the
 * services check that; what never changes is checked here.
 */
public final class MessageText {

    private MessageText() {
    }

    public static String check(String body) {
        if (body == null) {
            throw new InvalidInputException("message is missing");
        }
        if (body.isBlank()) {
            throw new InvalidInputException("message is blank: send at least one visible character");
        }
        return body;
    }

    public static String check(String body, Limits limits) {
        check(body);
        if (body.length() > limits.maxBodyLength()) {
            throw new InvalidInputException("message is " + body.length() + " characters long; the limit is "
                    + limits.maxBodyLength());
        }
        return body;
    }
}
