package dev.pigeonhole.domain.model;

import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The domain's clock, which keeps time to the millisecond as every store does (a sorted-set score
 * of epoch millis, the book's JSON seconds with three decimals, a bigint column): a time read back
 * is then the very time written. The services read their clock through it, once, where time
 * enters; the values that carry a time ({@code Message}, {@code DirectMessage}) refuse a finer
 * one, so no store ever has to round a time of its own.
 */
public record MillisecondClock(InstantSource source) implements InstantSource {

    public MillisecondClock {
        Objects.requireNonNull(source, "source");
    }

    /** The source read to the millisecond; a source that already is one is kept as it is. */
    public static MillisecondClock of(InstantSource source) {
        return source instanceof MillisecondClock clock ? clock : new MillisecondClock(source);
    }

    @Override
    public Instant instant() {
        return source.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * {@code at}, checked to be a whole millisecond.
     *
     * @throws IllegalArgumentException if it is finer: a time that did not come from this clock,
     *                                  which is a bug in the caller, not a user's mistake
     */
    public static Instant requireMillis(Instant at, String what) {
        Objects.requireNonNull(at, what);
        if (at.getNano() % 1_000_000 != 0) {
            throw new IllegalArgumentException(what + " " + at + " is finer than a millisecond: read the clock through"
                    + " MillisecondClock");
        }
        return at;
    }
}
