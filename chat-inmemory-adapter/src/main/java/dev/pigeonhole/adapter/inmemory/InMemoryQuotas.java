package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.port.out.Quotas;

import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Each user's buckets in a map of the time each is full again, taken with {@link RateLimit#take}
 * on this store's clock. A take runs inside the map's own per-key step, so eight callers at once
 * never take more than the bucket holds.
 *
 * <p>A bucket full again is as good as none, so every {@value #SWEEP_EVERY} takes the map drops
 * those: it holds only the users who wrote lately, however many wrote once.
 */
public final class InMemoryQuotas implements Quotas {

    static final int SWEEP_EVERY = 1_024;

    private record Bucket(UserId user, RateLimits.Write write) {
    }

    private final ConcurrentHashMap<Bucket, Long> fullAt = new ConcurrentHashMap<>();
    private final AtomicLong takes = new AtomicLong();
    private final InstantSource clock;

    /** @param clock the store's clock, which every take refills by */
    public InMemoryQuotas(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public RateLimit.Take take(UserId user, RateLimits.Write write, RateLimit limit) {
        if (limit.isNone()) {
            return limit.take(0, 0);
        }
        long now = clock.millis();
        RateLimit.Take[] outcome = new RateLimit.Take[1];
        fullAt.compute(new Bucket(user, write), (bucket, was) -> {
            outcome[0] = limit.take(was == null ? 0 : was, now);
            return outcome[0].fullAtMillis();
        });
        if (takes.incrementAndGet() % SWEEP_EVERY == 0) {
            fullAt.values().removeIf(full -> full <= now);
        }
        return outcome[0];
    }

    /** How many buckets are kept: the users who wrote lately. */
    int size() {
        return fullAt.size();
    }
}
