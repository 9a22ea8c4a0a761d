package dev.pigeonhole.benchmarks.baseline;

import java.math.BigDecimal;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;

/**
 * Redis in Action's send_message with acquire_lock_with_timeout and release_lock
 * (sections 6.2 and 6.5.2), on one connection as the book's {@code conn} is: SETNX, EXPIRE, INCR,
 * ZADD, WATCH, GET, MULTI..EXEC. Kept faithful, Python's quirks aside, because it is the
 * baseline; its weak spots (a lock that can expire mid-send) are the book's, not fixed here.
 */
final class BookChat {

    private static final int ACQUIRE_TIMEOUT_SECONDS = 10;
    private static final long LOCK_TIMEOUT_SECONDS = 10;

    private final String prefix;

    BookChat(String prefix) {
        this.prefix = prefix;
    }

    long sendMessage(Jedis conn, String chatId, String sender, String message) {
        String lock = "chat:" + chatId;
        String identifier = acquireLockWithTimeout(conn, lock);
        if (identifier == null) {
            throw new IllegalStateException("Couldn't get the lock");
        }
        try {
            long mid = conn.incr(prefix + "ids:" + chatId);
            conn.zadd(prefix + "msgs:" + chatId, mid, packed(mid, sender, message));
            return mid;
        } finally {
            releaseLock(conn, lock, identifier);
        }
    }

    /** Python's json.dumps of the book's dict, separators and all, so the stored bytes match. */
    static String packed(long id, String sender, String message) {
        // Python writes time.time() positional (1795251912.499); Java's Double.toString would not.
        String ts = BigDecimal.valueOf(System.currentTimeMillis() / 1000.0).toPlainString();
        return "{\"id\": " + id + ", \"ts\": " + ts + ", \"sender\": \"" + sender + "\", \"message\": \""
                + message + "\"}";
    }

    private String acquireLockWithTimeout(Jedis conn, String lockName) {
        String identifier = UUID.randomUUID().toString();
        String key = prefix + "lock:" + lockName;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(ACQUIRE_TIMEOUT_SECONDS);
        while (System.nanoTime() < end) {
            if (conn.setnx(key, identifier) == 1) {
                conn.expire(key, LOCK_TIMEOUT_SECONDS);
                return identifier;
            } else if (conn.ttl(key) == -1) {
                conn.expire(key, LOCK_TIMEOUT_SECONDS);
            }
            // The book's time.sleep(.001): what a loser pays is most of what contention costs it.
            LockSupport.parkNanos(1_000_000);
        }
        return null;
    }

    private boolean releaseLock(Jedis conn, String lockName, String identifier) {
        String key = prefix + "lock:" + lockName;
        while (true) {
            conn.watch(key);
            if (identifier.equals(conn.get(key))) {
                Transaction transaction = conn.multi();
                transaction.del(key);
                if (transaction.exec() == null) {
                    continue; // WatchError in the book: someone touched the lock; look again
                }
                return true;
            }
            conn.unwatch();
            return false;
        }
    }
}
