package dev.pigeonhole.archfixture.edge.adapter.redis;

import io.micrometer.core.instrument.Counter;

/** Broken on purpose: a store with its own metrics. */
public final class SelfCountingStore {
    public void store(Counter stored) {
        stored.increment();
    }
}
