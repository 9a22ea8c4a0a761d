package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.LockName;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Lease;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Leases as rows of {@code leases}, each with a random owner token, on the database's own clock
 * ({@code clock_timestamp()}), so servers whose clocks disagree still agree on who holds a name.
 * A grant is one upsert that takes the row only when it is free or its lease has ended; its
 * fencing token comes from a sequence, which only grows, across expiries and deleted rows alike.
 */
public final class PostgresChatLock implements ChatLock {

    private static final String ACQUIRE = """
            insert into leases as l (name, owner, fencing_token, expires_at)
            values (?, ?, nextval('lease_fencing_tokens'), clock_timestamp() + ? * interval '1 millisecond')
            on conflict (name) do update
               set owner = excluded.owner, fencing_token = excluded.fencing_token, expires_at = excluded.expires_at
             where l.expires_at <= clock_timestamp()
            returning fencing_token, expires_at""";

    /** Deletes the owner's row, expired or not, and says whether it was still the current lease. */
    private static final String RELEASE = """
            delete from leases where name = ? and owner = ?
            returning expires_at > clock_timestamp()""";

    private final Transactions transactions;

    public PostgresChatLock(PostgresStore store) {
        this.transactions = Objects.requireNonNull(store, "store").transactions();
    }

    @Override
    public Optional<Lease> tryAcquire(LockName name, Duration leaseTime) {
        if (leaseTime.toMillis() < 1) {
            throw new InvalidInputException("a lease lasts at least 1 ms, not " + leaseTime);
        }
        String owner = UUID.randomUUID().toString();
        return transactions.autocommit("a lease on " + name, connection -> {
            try (PreparedStatement acquire = connection.prepareStatement(ACQUIRE)) {
                acquire.setString(1, name.value());
                acquire.setString(2, owner);
                acquire.setLong(3, leaseTime.toMillis());
                try (ResultSet granted = acquire.executeQuery()) {
                    if (!granted.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new Lease(name, owner, granted.getLong(1),
                            granted.getTimestamp(2).toInstant(), this));
                }
            }
        });
    }

    @Override
    public boolean release(Lease lease) {
        return transactions.autocommit("releasing the lease on " + lease.name(), connection -> {
            try (PreparedStatement release = connection.prepareStatement(RELEASE)) {
                release.setString(1, lease.name().value());
                release.setString(2, lease.owner());
                try (ResultSet released = release.executeQuery()) {
                    return released.next() && released.getBoolean(1);
                }
            }
        });
    }
}
