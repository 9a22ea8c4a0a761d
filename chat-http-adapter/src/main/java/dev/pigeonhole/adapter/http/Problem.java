package dev.pigeonhole.adapter.http;

import java.time.Duration;
import java.util.Objects;

/**
 * An RFC 9457 problem: what went wrong, as the client sees it. Thrown by the edge wherever a
 * request cannot go on, and turned into {@code application/problem+json} in one place.
 *
 * @param type   a stable name for the kind of problem, under {@code /problems/}; clients switch on it
 * @param title  the same for every problem of this type
 * @param detail this occurrence, in words a client developer can act on
 */
final class Problem extends RuntimeException {

    private final int status;
    private final String type;
    private final String title;
    private final String detail;
    private final Integer retryAfterSeconds;
    private final Long messageId;

    private Problem(int status, String type, String title, String detail, Integer retryAfterSeconds) {
        this(status, type, title, detail, retryAfterSeconds, null);
    }

    private Problem(int status, String type, String title, String detail, Integer retryAfterSeconds, Long messageId) {
        super(title + ": " + detail, null, false, false);
        this.status = status;
        this.type = Objects.requireNonNull(type, "type");
        this.title = Objects.requireNonNull(title, "title");
        this.detail = Objects.requireNonNull(detail, "detail");
        this.retryAfterSeconds = retryAfterSeconds;
        this.messageId = messageId;
    }

    static Problem of(int status, String type, String title, String detail) {
        return new Problem(status, type, title, detail, null);
    }

    static Problem retryLater(String type, String title, String detail, int seconds) {
        return new Problem(503, type, title, detail, seconds);
    }

    /** {@link #retryLater} about a message that was stored: its id goes with the problem. */
    static Problem retryLaterAbout(long messageId, String type, String title, String detail, int seconds) {
        return new Problem(503, type, title, detail, seconds, messageId);
    }

    /** 429 with the whole seconds until a retry can succeed, never 0. */
    static Problem tooManyRequests(String type, String title, String detail, Duration retryAfter) {
        int seconds = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (retryAfter.toMillis() + 999) / 1000));
        return new Problem(429, type, title, detail, seconds);
    }

    static Problem malformedJson(String detail) {
        return of(400, "malformed-json", "Malformed JSON", detail);
    }

    static Problem wrongType(String detail) {
        return of(400, "wrong-field-type", "Wrong field type", detail);
    }

    static Problem missingField(String field) {
        return of(400, "missing-field", "Missing field", "the body needs a '" + field + "' field");
    }

    static Problem unknownField(String field, String allowed) {
        return of(400, "unknown-field", "Unknown field",
                "'" + field + "' is not a field of this request; it takes " + allowed);
    }

    static Problem badQuery(String detail) {
        return of(400, "invalid-query-parameter", "Invalid query parameter", detail);
    }

    static Problem unauthorized(String detail) {
        return of(401, "unauthorized", "Not signed in", detail);
    }

    static Problem forbidden(String detail) {
        return of(403, "forbidden", "Not allowed", detail);
    }

    int status() {
        return status;
    }

    String type() {
        return type;
    }

    String title() {
        return title;
    }

    String detail() {
        return detail;
    }

    /** Seconds a client should wait before trying again, for a 503. */
    Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** The stored message the problem is about, or null. */
    Long messageId() {
        return messageId;
    }
}
