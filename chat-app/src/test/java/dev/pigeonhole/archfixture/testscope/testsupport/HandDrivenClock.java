package dev.pigeonhole.archfixture.testscope.testsupport;

import java.time.Instant;
import java.time.InstantSource;

public final class HandDrivenClock implements InstantSource {
    @Override
    public Instant instant() {
        return Instant.EPOCH;
    }
}
