package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.LockName;

import java.time.Duration;
import java.util.Optional;

/**
 * A lease on a named piece of work, so that it runs on one instance at a time (presence pruning,
 * retention sweeps, and the book's locked send kept as a benchmark baseline).
 *
 * <p>A lease expires on its own, so a holder that crashes blocks no one for longer than the lease.
 * Because an expired holder may still be running, every grant carries a fencing token larger than
 * any granted before for that name: whatever the work writes can carry it and be refused when a
 * newer token has been seen.
 */
public interface ChatLock {

    /** The lease if {@code name} is free (or its last lease expired), else empty. Never waits. */
    Optional<Lease> tryAcquire(LockName name, Duration leaseTime);

    /**
     * Frees the lease if it is still the current one (compare-and-delete on the owner token).
     * A lease that expired and was granted to someone else is left alone.
     *
     * @return whether this call freed it
     */
    boolean release(Lease lease);
}
