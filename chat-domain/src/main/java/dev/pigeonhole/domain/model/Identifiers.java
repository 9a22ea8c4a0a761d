package dev.pigeonhole.domain.model;

import java.util.regex.Pattern;

/**
 * The one rule every identifier obeys. Ids end up inside Redis keys, so a {@code :}, a brace or a
 * space must be stopped here, once, rather than escaped in every adapter.
 */
public final class Identifiers {

    public static final int MAX_LENGTH = 64;
    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_LENGTH + "}");

    private Identifiers() {
    }

    public static void check(String kind, String value) {
        if (value == null) {
            throw new InvalidIdException(kind + " is missing");
        }
        if (!ALLOWED.matcher(value).matches()) {
            throw new InvalidIdException(kind + " '" + printable(value) + "' is not valid: use 1 to "
                    + MAX_LENGTH + " characters from A-Z, a-z, 0-9, '.', '_' and '-'");
        }
    }

    /** Keeps an error message readable and short whatever a client sent. */
    private static String printable(String value) {
        String shown = value.length() > MAX_LENGTH + 16 ? value.substring(0, MAX_LENGTH + 16) + "…" : value;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }
}
