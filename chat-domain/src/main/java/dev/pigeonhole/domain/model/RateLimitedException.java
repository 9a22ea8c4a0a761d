package dev.pigeonhole.domain.model;

import java.time.Duration;
import java.util.Objects;

/** A write refused because its user's bucket is empty; nothing was changed. */
public final class RateLimitedException extends DomainException {

    private final RateLimits.Write write;
    private final Duration retryAfter;

    public RateLimitedException(RateLimits.Write write, RateLimit limit, Duration retryAfter) {
        super("too many " + write.word() + "s: the limit is " + limit + "; try again in "
                + Math.max(1, (retryAfter.toMillis() + 999) / 1000) + " s");
        this.write = Objects.requireNonNull(write, "write");
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
    }

    public RateLimits.Write write() {
        return write;
    }

    /** How long until the bucket has a token again. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
