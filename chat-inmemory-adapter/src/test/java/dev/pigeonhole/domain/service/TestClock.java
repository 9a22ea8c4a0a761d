package dev.pigeonhole.domain.service;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock the test moves by hand. */
public final class TestClock implements InstantSource {

    public static final Instant START = Instant.parse("2026-11-21T10:00:00Z");

    private final AtomicReference<Instant> now = new AtomicReference<>(START);

    @Override
    public Instant instant() {
        return now.get();
    }

    public void advance(Duration by) {
        now.updateAndGet(at -> at.plus(by));
    }
}
