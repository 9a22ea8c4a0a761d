package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.port.out.Quotas;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Objects;

/**
 * Each user's buckets for the rarer writes, as rows of {@code quota_buckets}, taken with the
 * domain's {@link RateLimit#take} inside one transaction on the database's clock. The first
 * statement locks the bucket's row (creating it, empty, if need be) and reads the clock once it
 * holds the lock, so callers through any number of servers take one after the other and none is
 * admitted on a stale reading. A bucket that is full again is the same as no bucket, so a take
 * first forgets the user's buckets that are.
 */
public final class PostgresQuotas implements Quotas {

    /** Skips a bucket another take holds, so two takes of one user never wait on each other here. */
    private static final String FORGET_FULL = """
            delete from quota_buckets where ctid in (
                select ctid from quota_buckets
                 where user_id = ? and write_kind <> ?
                   and full_at_millis <= (extract(epoch from clock_timestamp()) * 1000)::bigint
                   for update skip locked)""";

    private static final String LOCK_AND_READ = """
            insert into quota_buckets as q (user_id, write_kind, full_at_millis) values (?, ?, 0)
            on conflict (user_id, write_kind) do update set full_at_millis = q.full_at_millis
            returning full_at_millis, (extract(epoch from clock_timestamp()) * 1000)::bigint""";

    private static final String TAKE = "update quota_buckets set full_at_millis = ? where user_id = ? and write_kind = ?";

    private final Transactions transactions;

    public PostgresQuotas(PostgresStore store) {
        this.transactions = Objects.requireNonNull(store, "store").transactions();
    }

    @Override
    public RateLimit.Take take(UserId user, RateLimits.Write write, RateLimit limit) {
        if (limit.isNone()) {
            return limit.take(0, 0); // admitted, and no bucket kept
        }
        return transactions.inTransaction("a " + write.word() + " token of " + user, connection -> {
            try (PreparedStatement forget = connection.prepareStatement(FORGET_FULL)) {
                forget.setString(1, user.value());
                forget.setString(2, write.word());
                forget.executeUpdate();
            }
            long fullAt;
            long now;
            try (PreparedStatement lock = connection.prepareStatement(LOCK_AND_READ)) {
                lock.setString(1, user.value());
                lock.setString(2, write.word());
                try (ResultSet bucket = lock.executeQuery()) {
                    bucket.next();
                    fullAt = bucket.getLong(1);
                    now = bucket.getLong(2);
                }
            }
            RateLimit.Take take = limit.take(fullAt, now);
            if (take.admitted()) {
                try (PreparedStatement taken = connection.prepareStatement(TAKE)) {
                    taken.setLong(1, take.fullAtMillis());
                    taken.setString(2, user.value());
                    taken.setString(3, write.word());
                    taken.executeUpdate();
                }
            }
            return take;
        });
    }
}
