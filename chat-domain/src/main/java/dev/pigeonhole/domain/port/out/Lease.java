package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.LockName;

import java.time.Instant;
import java.util.Objects;

/**
 * A granted {@link ChatLock} lease. {@code AutoCloseable}, so that try-with-resources releases it
 * on every path out of the guarded work.
 *
 * @param owner        a token unique to this grant; release compares it
 * @param fencingToken larger than every token granted before for the same name
 * @param expiresAt    when the store forgets the lease if it is not released
 */
public record Lease(LockName name, String owner, long fencingToken, Instant expiresAt, ChatLock issuer)
        implements AutoCloseable {

    public Lease {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(issuer, "issuer");
    }

    @Override
    public void close() {
        issuer.release(this);
    }

    @Override
    public String toString() {
        return "Lease[" + name + ", fencingToken=" + fencingToken + ", expiresAt=" + expiresAt + "]";
    }
}
