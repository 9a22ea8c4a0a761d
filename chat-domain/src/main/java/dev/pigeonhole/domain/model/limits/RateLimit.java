package dev.pigeonhole.domain.model.limits;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.RateLimitedException;

import java.time.Duration;
import java.util.Objects;

/**
 * A token bucket: up to {@code burst} writes at once, refilled evenly over {@code per}, one token
 * every {@code per / burst}. "20 per 5 s" lets a person type and a client retry a few times, and
 * holds a script that floods to four writes a second.
 *
 * <p>A bucket is kept as one instant, the time it is full again ({@link #take}): no token count,
 * no refill timer, and a bucket that has been full for a while can be forgotten, since forgetting
 * it is the same as keeping it full. Every store keeps that one number, and a store that takes
 * tokens inside its own atomic step (Redis Lua) transliterates {@link #take} line by line.
 *
 * @param burst how many writes a full bucket admits at once
 * @param per   how long the bucket takes to fill up again from empty; {@link Duration#ZERO} for
 *              {@link #NONE}
 */
public record RateLimit(int burst, Duration per) {

    /** No limit: every take is admitted and no bucket is kept. For load tests and benchmarks. */
    public static final RateLimit NONE = new RateLimit(1, Duration.ZERO);

    public RateLimit {
        Objects.requireNonNull(per, "per");
        if (burst < 1) {
            throw new InvalidInputException("a rate limit's burst must be at least 1, not " + burst);
        }
        if (per.isNegative() || (!per.isZero() && per.toMillis() < burst)) {
            throw new InvalidInputException("a rate limit of " + burst + " per " + per
                    + " refills faster than one token a millisecond; give a longer period");
        }
    }

    public boolean isNone() {
        return per.isZero();
    }

    /** How long one token takes to come back, in milliseconds. */
    public long intervalMillis() {
        return per.toMillis() / burst;
    }

    /**
     * One write at {@code nowMillis} against a bucket that is full again at {@code fullAtMillis}
     * (anything at or before now for a full bucket, 0 for one never used). Admitted, the bucket is
     * full one interval later than it was; refused, it is unchanged and the caller learns how
     * long until a token is back. Written in whole milliseconds so that every store computes the
     * very same answer.
     */
    public Take take(long fullAtMillis, long nowMillis) {
        if (isNone()) {
            return new Take(true, fullAtMillis, 0);
        }
        long interval = intervalMillis();
        long fullAt = Math.max(fullAtMillis, nowMillis) + interval;
        long overdraft = fullAt - nowMillis - burst * interval;
        if (overdraft > 0) {
            return new Take(false, fullAtMillis, overdraft);
        }
        return new Take(true, fullAt, 0);
    }

    /** The refusal of a write this limit held back, worded once for every store. */
    public RateLimitedException refusal(RateLimits.Write write, Duration retryAfter) {
        return new RateLimitedException(write.word(), toString(), retryAfter);
    }

    /**
     * A take's outcome.
     *
     * @param fullAtMillis     when the bucket is full again after the take (unchanged if refused)
     * @param retryAfterMillis 0 if admitted, else how long until the next take would be
     */
    public record Take(boolean admitted, long fullAtMillis, long retryAfterMillis) {

        public Duration retryAfter() {
            return Duration.ofMillis(retryAfterMillis);
        }
    }

    /** As a refusal words it, and as the command line writes it: "20/5s", or "none". */
    @Override
    public String toString() {
        if (isNone()) {
            return "none";
        }
        long millis = per.toMillis();
        String period = millis % 3_600_000 == 0 ? millis / 3_600_000 + "h"
                : millis % 60_000 == 0 ? millis / 60_000 + "m"
                : millis % 1_000 == 0 ? millis / 1_000 + "s"
                : millis + "ms";
        return burst + "/" + period;
    }
}
