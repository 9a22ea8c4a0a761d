package dev.pigeonhole.domain.model;

import java.time.Duration;
import java.util.Objects;

/**
 * A write refused because its user's bucket is empty; nothing was changed. Worded by the limit
 * that refused it ({@code RateLimit.refusal}), so every store says the same.
 */
public final class RateLimitedException extends DomainException {

    private final String write;
    private final Duration retryAfter;

    /**
     * @param write the kind of write refused, as its limit names it ("send")
     * @param limit the limit, as it is written ("20/5s")
     */
    public RateLimitedException(String write, String limit, Duration retryAfter) {
        super("too many " + write + "s: the limit is " + limit + "; try again in "
                + Math.max(1, (retryAfter.toMillis() + 999) / 1000) + " s");
        this.write = Objects.requireNonNull(write, "write");
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
    }

    /** The kind of write refused, as its limit names it: "send", "create", "invite" or "deliver". */
    public String write() {
        return write;
    }

    /** How long until the bucket has a token again. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
