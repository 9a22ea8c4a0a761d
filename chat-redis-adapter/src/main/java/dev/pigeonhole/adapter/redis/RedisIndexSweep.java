package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.LockName;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Lease;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Mends users' chat indexes on Redis now and then ({@link ChatIndex}): what a lost second step of
 * an open, join or leave left wrong. Every instance may offer to; under a lease of the domain's
 * {@link ChatLock}, one at a time does. Which users to sweep is the caller's choice (the server
 * sweeps the users online, and with them everyone they share a chat with).
 */
public final class RedisIndexSweep {

    static final LockName LOCK = LockName.of("chat-index-sweep");
    /** Far longer than three pipelined round trips take, even for thousands of users. */
    static final Duration LEASE = Duration.ofMinutes(1);
    /** Users whose indexes one repair reads at once, so no pipeline grows with the number online. */
    static final int BATCH = 500;

    private final ChatIndex index;
    private final ChatLock lock;

    public RedisIndexSweep(RedisDriver redis, KeyLayout keys, ChatLock lock) {
        this.index = new ChatIndex(Objects.requireNonNull(redis, "redis"), Objects.requireNonNull(keys, "keys"));
        this.lock = Objects.requireNonNull(lock, "lock");
    }

    /**
     * Mends the indexes around these users, a batch at a time, or, while another instance is at it,
     * does nothing and says so. Every change is guarded by its generation, so a sweep that outlives
     * its lease and meets another does no harm, only work twice.
     */
    public Optional<IndexRepair> sweep(Set<UserId> users) {
        Optional<Lease> lease = lock.tryAcquire(LOCK, LEASE);
        if (lease.isEmpty()) {
            return Optional.empty();
        }
        try (Lease held = lease.get()) {
            List<UserId> all = List.copyOf(users);
            int relisted = 0;
            int dropped = 0;
            for (int from = 0; from < all.size(); from += BATCH) {
                IndexRepair batch = index.repair(Set.copyOf(all.subList(from, Math.min(from + BATCH, all.size()))));
                relisted += batch.relisted();
                dropped += batch.dropped();
            }
            return Optional.of(new IndexRepair(relisted, dropped));
        }
    }
}
