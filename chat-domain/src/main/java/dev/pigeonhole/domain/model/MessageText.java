package dev.pigeonhole.domain.model;

/**
 * The shape every message body has. A body is checked in full where it enters ({@link #check}: in
 * the commands that carry one); a message rebuilt from a store is held only to what every body
 * ever stored obeys ({@link #checkKept}), so a rule added later never makes old messages unreadable.
 * Its length limit is configuration, which the services hold against it
 * ({@code Limits.checkBodyLength}).
 */
public final class MessageText {

    private MessageText() {
    }

    /**
     * A body a client sends: present, not blank, and free of control characters but tab and line
     * feed. The rest of C0 and DEL mean nothing on a screen, and each costs six bytes once JSON
     * escapes it, so they would let a body count for a sixth of what it weighs on the wire.
     *
     * @throws InvalidInputException naming the first control character and its position, counted
     *                               in characters from 1
     */
    public static void check(String body) {
        checkKept(body);
        int position = 0;
        for (int at = 0; at < body.length(); at += Character.charCount(body.codePointAt(at))) {
            position++;
            int c = body.codePointAt(at);
            if (isRefusedControl(c)) {
                throw new InvalidInputException(String.format(
                        "message has a control character (U+%04X) at position %d; only tab and line feed are allowed",
                        c, position));
            }
        }
    }

    /** What a stored body has always been: present and not blank. */
    public static void checkKept(String body) {
        if (body == null) {
            throw new InvalidInputException("message is missing");
        }
        if (body.isBlank()) {
            throw new InvalidInputException("message is blank: send at least one visible character");
        }
    }

    private static boolean isRefusedControl(int c) {
        return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7F;
    }
}
