package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.NotDurableException;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * How many replicas must hold a write before the client is told it is kept, and how long to wait
 * for them. Redis replicates asynchronously: a primary that dies before its replicas received a
 * write takes the write with it, though the client was told it was stored. Asking for replicas
 * closes most of that window at the cost of the replication round trip on every such write (WAIT,
 * which cannot run inside a function, so it follows the function on the same connection).
 *
 * <p>{@link #NONE} (the default) waits for nothing: a write is answered when the primary ran it.
 *
 * <p>Which writes wait is the stores' choice: what a user was promised to keep (a message, a
 * membership, a delivery, an acknowledgement of one's mailbox, one's consent). Presence, rate
 * buckets, locks, the user's chat index and the batch acknowledgement of chats do not: each is
 * rebuilt or repeated by the next request (the index by its sweep; an acknowledgement lost with a
 * primary shows the messages as unread again, which at-least-once delivery allows).
 */
public record Durability(int replicas, Duration timeout) {

    /** The most WAIT is asked to wait: longer would hold a caller past any client's patience. */
    public static final Duration MAX_TIMEOUT = Duration.ofSeconds(60);

    public static final Durability NONE = new Durability(0, Duration.ZERO);

    public Durability {
        Objects.requireNonNull(timeout, "timeout");
        if (replicas < 0) {
            throw new IllegalArgumentException("replicas must be 0 or more, not " + replicas);
        }
        if (replicas > 0 && (timeout.toMillis() < 1 || timeout.compareTo(MAX_TIMEOUT) > 0)) {
            // WAIT's 0 means "forever": a replica that never comes back would hold every send.
            throw new IllegalArgumentException("the wait for replicas must be 1 ms to " + MAX_TIMEOUT.toSeconds()
                    + " s, not " + timeout.toMillis() + " ms");
        }
    }

    public boolean waits() {
        return replicas > 0;
    }

    /** Runs a writing function; waits for the replicas after it when this asks for any. */
    Written write(RedisDriver redis, FunctionCall call) {
        if (!waits()) {
            return new Written(redis.run(call), true);
        }
        Replicated replicated = redis.runReplicated(call, replicas, timeout);
        return new Written(replicated.reply(), replicated.replicas() >= replicas);
    }

    /** Refuses to call a write kept that fewer replicas than asked for acknowledged. */
    NotDurableException notDurable(String write, OptionalLong messageId) {
        return new NotDurableException(write + " is stored, but fewer than " + replicas + " "
                + (replicas == 1 ? "replica" : "replicas") + " confirmed it within " + timeout.toMillis()
                + " ms, so it may not survive a failover", messageId);
    }

    @Override
    public String toString() {
        return waits() ? "replicas=" + replicas + ",timeout=" + timeout.toMillis() : "none";
    }

    /** A write's reply, and whether as many replicas as asked hold it. */
    record Written(Object reply, boolean confirmed) {
    }
}
