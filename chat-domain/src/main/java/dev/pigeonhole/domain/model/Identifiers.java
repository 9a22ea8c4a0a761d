package dev.pigeonhole.domain.model;

/**
 * The one rule every identifier obeys. Ids end up inside Redis keys, so a {@code :}, a brace or a
 * space must be stopped here, once, rather than escaped in every adapter.
 */
public final class Identifiers {

    public static final int MAX_LENGTH = 64;

    private Identifiers() {
    }

    public static void check(String kind, String value) {
        if (value == null) {
            throw new InvalidIdException(kind + " is missing");
        }
        if (!isAllowed(value)) {
            throw new InvalidIdException(kind + " '" + printable(value) + "' is not valid: use 1 to "
                    + MAX_LENGTH + " characters from A-Z, a-z, 0-9, '.', '_' and '-'");
        }
    }

    /**
     * 1 to {@link #MAX_LENGTH} of A-Z, a-z, 0-9, '.', '_' and '-'. Every id read back from a store
     * passes here (a pending over a hundred chats reads a hundred chat ids and every sender's),
     * so it is a loop over the characters rather than a regular expression, which would make a
     * matcher for each.
     */
    private static boolean isAllowed(String value) {
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    /** Keeps an error message readable and short whatever a client sent. */
    private static String printable(String value) {
        String shown = value.length() > MAX_LENGTH + 16 ? value.substring(0, MAX_LENGTH + 16) + "…" : value;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }
}
