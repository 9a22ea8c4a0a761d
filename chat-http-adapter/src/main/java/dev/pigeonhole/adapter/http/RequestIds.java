package dev.pigeonhole.adapter.http;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The id that ties one request's answer to its log lines. A client or proxy may bring its own in
 * {@code X-Request-Id}, so a request can be followed across services; the server echoes it and logs
 * it. It is taken only when it is plainly an id: a value that could carry a line break, a quote or
 * a thousand bytes into a log line or a header is dropped, unread, and the server makes one.
 */
final class RequestIds {

    static final String HEADER = "X-Request-Id";
    static final int MAX_LENGTH = 64;

    private RequestIds() {
    }

    /** The client's id if it is a sane one, else a new one: 16 hex digits, 64 random bits. */
    static String of(String offered) {
        return sane(offered) ? offered : HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }

    /** 1 to 64 characters of letters, digits and {@code . _ : -}; nothing a log or header reader trips on. */
    static boolean sane(String offered) {
        if (offered == null || offered.isEmpty() || offered.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < offered.length(); i++) {
            char c = offered.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '.' || c == '_' || c == ':' || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }
}
