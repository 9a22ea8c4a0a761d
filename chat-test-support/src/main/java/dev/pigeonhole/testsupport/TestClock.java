package dev.pigeonhole.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock the test drives: it stands still until the test moves it forward, so that expiry,
 * windows and message times are tested exactly, without waiting for them.
 *
 * <p>It keeps whole milliseconds, as the domain and every store do: a time or a step finer than
 * that is refused, since a store would round it and the test would then compare what it never
 * meant to.
 */
public final class TestClock implements InstantSource {

    /** Where a clock starts unless told otherwise. */
    public static final Instant START = Instant.parse("2026-11-21T10:00:00Z");

    private final AtomicReference<Instant> now;

    /** A clock at {@link #START}. */
    public TestClock() {
        this(START);
    }

    public TestClock(Instant start) {
        this.now = new AtomicReference<>(wholeMillis("a start", start));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    /** Moves the clock forward by {@code step}, a whole number of milliseconds, zero or more. */
    public void advance(Duration step) {
        Objects.requireNonNull(step, "step");
        if (step.isNegative()) {
            throw new IllegalArgumentException("a test clock only moves forward, not by " + step);
        }
        if (step.toNanos() % 1_000_000 != 0) {
            throw new IllegalArgumentException("a test clock moves by whole milliseconds, not by " + step);
        }
        now.updateAndGet(instant -> instant.plus(step));
    }

    private static Instant wholeMillis(String what, Instant instant) {
        Objects.requireNonNull(instant, what);
        if (!instant.truncatedTo(ChronoUnit.MILLIS).equals(instant)) {
            throw new IllegalArgumentException(what + " of a test clock is a whole millisecond, not " + instant);
        }
        return instant;
    }
}
