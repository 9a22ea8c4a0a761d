package dev.pigeonhole.app;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock the test moves by hand. */
final class TestClock implements InstantSource {

    private final AtomicReference<Instant> now;

    TestClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    void advance(Duration by) {
        now.updateAndGet(instant -> instant.plus(by));
    }
}
