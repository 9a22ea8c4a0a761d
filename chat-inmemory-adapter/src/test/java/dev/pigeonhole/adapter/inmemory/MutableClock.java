package dev.pigeonhole.adapter.inmemory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock the test moves by hand, so that expiry is tested without waiting for it. */
final class MutableClock implements InstantSource {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-21T10:00:00Z"));

    @Override
    public Instant instant() {
        return now.get();
    }

    void advance(Duration by) {
        now.updateAndGet(at -> at.plus(by));
    }
}
