package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.LockName;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Lease;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Leases in memory, with the semantics of Redis's {@code SET lock:<name> <owner> NX PX <lease>}:
 * a lease counts as gone once its time is up, even though nothing removed it yet.
 *
 * <p>Only useful within one process (a single instance needs no distributed lock), but it keeps
 * the same promises, so code written against {@link ChatLock} behaves the same on every backend.
 */
public final class InMemoryChatLock implements ChatLock {

    private final InstantSource clock;
    private final ConcurrentHashMap<LockName, Lease> current = new ConcurrentHashMap<>();
    /** One counter for all names: strictly growing overall, so growing for each name too. */
    private final AtomicLong lastFencingToken = new AtomicLong();

    public InMemoryChatLock(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Optional<Lease> tryAcquire(LockName name, Duration leaseTime) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(leaseTime, "leaseTime");
        if (leaseTime.isNegative() || leaseTime.isZero()) {
            throw new InvalidInputException("leaseTime must be more than zero, not " + leaseTime);
        }
        Instant now = clock.instant();
        String owner = UUID.randomUUID().toString();
        Lease holder = current.compute(name, (key, held) -> isLive(held, now)
                ? held
                : new Lease(key, owner, lastFencingToken.incrementAndGet(), now.plus(leaseTime), this));
        return holder.owner().equals(owner) ? Optional.of(holder) : Optional.empty();
    }

    @Override
    public boolean release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        Instant now = clock.instant();
        AtomicBoolean freed = new AtomicBoolean();
        current.computeIfPresent(lease.name(), (key, held) -> {
            if (!held.owner().equals(lease.owner())) {
                return held; // someone else's lease now: leave it alone
            }
            // Ours. If it already ran out, the store had forgotten it and this call freed nothing,
            // but the stale entry goes either way.
            freed.set(isLive(held, now));
            return null;
        });
        return freed.get();
    }

    /** Live until, not at, its expiry instant, as with a Redis key's PX expiry. */
    private static boolean isLive(Lease lease, Instant now) {
        return lease != null && now.isBefore(lease.expiresAt());
    }
}
