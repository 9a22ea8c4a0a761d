package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.LockName;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Lease;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Leases as a key set with NX and a PX expiry, holding a random owner token; release is a
 * compare-and-delete script. The fencing token comes from a counter beside the lease key, which
 * outlives every lease, so it keeps growing after a holder crashed and its lease expired.
 */
public final class RedisChatLock implements ChatLock {

    private final RedisDriver redis;
    private final KeyLayout keys;
    private final InstantSource clock;

    public RedisChatLock(RedisDriver redis, KeyLayout keys, InstantSource clock) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Optional<Lease> tryAcquire(LockName name, Duration leaseTime) {
        if (leaseTime.toMillis() < 1) {
            throw new InvalidInputException("a lease lasts at least 1 ms, not " + leaseTime);
        }
        KeyLayout.LockKeys lockKeys = keys.lock(name);
        String owner = UUID.randomUUID().toString();
        // Taken before the call, so the lease is never thought to last longer than Redis keeps it.
        Instant requestedAt = clock.instant();
        FunctionCall call = new FunctionCall(Functions.LOCK_ACQUIRE, List.of(lockKeys.lease(), lockKeys.fence()),
                List.of(owner, Long.toString(leaseTime.toMillis())));
        Reply reply = Reply.of(redis.run(call), Functions.LOCK_ACQUIRE);
        if (reply.is("BUSY")) {
            return Optional.empty();
        }
        if (!reply.is("OK")) {
            throw reply.unexpected(Functions.LOCK_ACQUIRE);
        }
        return Optional.of(new Lease(name, owner, reply.number(0), requestedAt.plus(leaseTime), this));
    }

    @Override
    public boolean release(Lease lease) {
        FunctionCall call = new FunctionCall(Functions.LOCK_RELEASE, List.of(keys.lock(lease.name()).lease()),
                List.of(lease.owner()));
        return Reply.of(redis.run(call), Functions.LOCK_RELEASE).number(0) == 1;
    }
}
