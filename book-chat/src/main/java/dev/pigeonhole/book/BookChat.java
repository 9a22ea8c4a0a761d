package dev.pigeonhole.book;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.resps.Tuple;

/**
 * Redis in Action 6.5.2 as the book's listings do it: create_chat, send_message under
 * acquire_lock_with_timeout and release_lock (section 6.2), fetch_pending_messages, join_chat and
 * leave_chat, on one plain Jedis connection as the book's {@code conn} is, with the same commands
 * in the same round trips. It shares nothing with the Redis adapter, so it is an independent
 * second writer of the book's keys, and it is kept faithful, weak spots included (a lock that can
 * expire mid-send, a fetch whose cost grows with the number of chats), because it is the baseline
 * the adapter is measured against. Messages are stored as Python's {@code json.dumps} writes the
 * book's dict.
 *
 * <p>Not thread-safe: one per thread, like the book's connections (WATCH belongs to a connection).
 */
public final class BookChat implements AutoCloseable {

    private static final int ACQUIRE_TIMEOUT_SECONDS = 10;
    private static final long LOCK_TIMEOUT_SECONDS = 10;

    private final Jedis conn;
    private final String prefix;

    /**
     * @param conn   the connection this instance owns and closes
     * @param prefix put in front of every key, to keep runs apart; the book's keys follow it
     */
    public BookChat(Jedis conn, String prefix) {
        this.conn = conn;
        this.prefix = prefix;
    }

    /** Listing 6.24: a chat id from the counter unless given, every member at 0, then the first message. */
    public String createChat(String sender, List<String> recipients, String message, String chatId) {
        String chat = chatId != null ? chatId : Long.toString(conn.incr(prefix + "ids:chat:"));
        List<String> everyone = new ArrayList<>(recipients);
        everyone.add(sender);
        Map<String, Double> atZero = new HashMap<>();
        everyone.forEach(member -> atZero.put(member, 0.0));
        Transaction multi = conn.multi();
        multi.zadd(prefix + "chat:" + chat, atZero);
        for (String member : everyone) {
            multi.zadd(prefix + "seen:" + member, 0, chat);
        }
        multi.exec();
        sendMessage(chat, sender, message);
        return chat;
    }

    /**
     * Listing 6.25: INCR and ZADD under the chat's lock. Returns the message's id (the book returns
     * the chat id its caller already has).
     */
    public long sendMessage(String chatId, String sender, String message) {
        String lock = "chat:" + chatId;
        String identifier = acquireLockWithTimeout(lock);
        if (identifier == null) {
            throw new IllegalStateException("Couldn't get the lock");
        }
        try {
            long mid = conn.incr(prefix + "ids:" + chatId);
            conn.zadd(prefix + "msgs:" + chatId, mid, packed(mid, sender, message));
            return mid;
        } finally {
            releaseLock(lock, identifier);
        }
    }

    /**
     * Listing 6.26: everything above each seen id, then for each chat that had news the member's
     * cursor moved and the seen-by-all trimmed. Round trips: one ZRANGE of {@code seen:}, one
     * MULTI..EXEC of every chat's ZRANGEBYSCORE, two calls per chat with news (ZADD {@code chat:},
     * ZRANGE {@code chat:}), then one MULTI..EXEC of the {@code seen:} updates and trims: 2K + 3
     * in the book's redis-py, which sends a MULTI..EXEC as one batch. Jedis sends MULTI when the
     * transaction opens and the rest at EXEC, so each MULTI..EXEC is two round trips here: 2K + 5,
     * which the benchmarks' round-trip model counts.
     *
     * @return every chat of the recipient, in {@code seen:} order, with its new messages as stored
     *         (the book's JSON; the book {@code json.loads} them, which is left to the caller)
     */
    public Map<String, List<String>> fetchPendingMessages(String recipient) {
        List<Tuple> seen = conn.zrangeWithScores(prefix + "seen:" + recipient, 0, -1);

        Transaction fetch = conn.multi();
        List<Response<List<String>>> fetched = new ArrayList<>(seen.size());
        for (Tuple chat : seen) {
            fetched.add(fetch.zrangeByScore(prefix + "msgs:" + chat.getElement(),
                    Long.toString((long) chat.getScore() + 1), "inf"));
        }
        fetch.exec();

        // redis-py's pipeline buffers client side until execute(), so the book's synchronous
        // calls below run first; Jedis sends MULTI at once, hence the updates are noted here
        // and queued after the loop, which is the same commands in the same round trips.
        Map<String, List<String>> chatInfo = new LinkedHashMap<>();
        List<SeenUpdate> seenUpdates = new ArrayList<>();
        for (int i = 0; i < seen.size(); i++) {
            String chatId = seen.get(i).getElement();
            List<String> messages = fetched.get(i).get();
            chatInfo.put(chatId, messages);
            if (messages.isEmpty()) {
                continue;
            }
            long seenId = idOf(messages.getLast());
            conn.zadd(prefix + "chat:" + chatId, seenId, recipient);
            List<Tuple> minId = conn.zrangeWithScores(prefix + "chat:" + chatId, 0, 0);
            seenUpdates.add(new SeenUpdate(chatId, seenId, minId.isEmpty() ? -1 : minId.getFirst().getScore()));
        }
        Transaction update = conn.multi();
        for (SeenUpdate seenUpdate : seenUpdates) {
            update.zadd(prefix + "seen:" + recipient, seenUpdate.seenId(), seenUpdate.chatId());
            if (seenUpdate.minId() >= 0) {
                update.zremrangeByScore(prefix + "msgs:" + seenUpdate.chatId(), 0, seenUpdate.minId());
            }
        }
        update.exec();
        return chatInfo;
    }

    private record SeenUpdate(String chatId, long seenId, double minId) {
    }

    /** Listing 6.27: the new member starts at the chat's current id. */
    public void joinChat(String chatId, String user) {
        long messageId = Long.parseLong(conn.get(prefix + "ids:" + chatId));
        Transaction multi = conn.multi();
        multi.zadd(prefix + "chat:" + chatId, messageId, user);
        multi.zadd(prefix + "seen:" + user, messageId, chatId);
        multi.exec();
    }

    /**
     * Listing 6.28: the last one out deletes the messages and the counter. Otherwise what every
     * remaining member has seen is trimmed from {@code msgs:}, which is what the listing means:
     * as printed it passes {@code chat:} and the whole ZRANGE reply, a slip in the listing.
     */
    public void leaveChat(String chatId, String user) {
        Transaction multi = conn.multi();
        multi.zrem(prefix + "chat:" + chatId, user);
        multi.zrem(prefix + "seen:" + user, chatId);
        Response<Long> remaining = multi.zcard(prefix + "chat:" + chatId);
        multi.exec();
        if (remaining.get() == 0) {
            conn.del(prefix + "msgs:" + chatId, prefix + "ids:" + chatId);
        } else {
            List<Tuple> oldest = conn.zrangeWithScores(prefix + "chat:" + chatId, 0, 0);
            conn.zremrangeByScore(prefix + "msgs:" + chatId, 0, oldest.getFirst().getScore());
        }
    }

    /** Section 6.2's lock with a timeout: SETNX, then an expiry, retried until the deadline. */
    private String acquireLockWithTimeout(String lockName) {
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

    /** Section 6.2's release: WATCH, check it is still ours, delete in MULTI, again if the lock was touched. */
    private boolean releaseLock(String lockName, String identifier) {
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

    /**
     * Python's {@code json.dumps} of the book's dict, stamped now: ", " and ": " separators,
     * non-ASCII escaped, and {@code ts} as {@code repr(time.time())} writes it, microseconds and
     * plain notation (Java's shortest round-trip digits are Python's).
     */
    public static String packed(long id, String sender, String message) {
        Instant now = Instant.now();
        double seconds = (now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000) / 1e6;
        return "{\"id\": " + id + ", \"ts\": " + BigDecimal.valueOf(seconds).toPlainString()
                + ", \"sender\": " + pythonString(sender) + ", \"message\": " + pythonString(message) + "}";
    }

    private static String pythonString(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /**
     * The book json.loads every message for the id of the last one; the id is all this parses.
     * Either separator style: the adapter writes {@code {"id":1,...}}, Python {@code {"id": 1, ...}}.
     * Both put the id first, so the first {@code "id"} is the key (quotes inside a value are escaped).
     */
    private static long idOf(String packed) {
        int start = packed.indexOf("\"id\"") + 4;
        while (packed.charAt(start) == ':' || packed.charAt(start) == ' ') {
            start++;
        }
        int end = start;
        while (end < packed.length() && Character.isDigit(packed.charAt(end))) {
            end++;
        }
        return Long.parseLong(packed, start, end, 10);
    }

    @Override
    public void close() {
        conn.close();
    }
}
