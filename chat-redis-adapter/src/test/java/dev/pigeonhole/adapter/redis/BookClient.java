package dev.pigeonhole.adapter.redis;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.resps.Tuple;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

/**
 * Redis in Action 6.5.2 as the book's listings do it (create_chat, send_message with the lock of
 * 6.2, fetch_pending_messages, join_chat, leave_chat), in Java with a plain Jedis connection and
 * nothing from the adapter, so that it is an independent second writer. The message JSON is
 * written the way Python's {@code json.dumps} writes it, spaces and microseconds included.
 *
 * <p>Not thread-safe: one per thread, like the book's connections.
 */
final class BookClient implements AutoCloseable {

    private final Jedis redis;
    private final String prefix;

    BookClient(String host, int port, String prefix) {
        this.redis = new Jedis(host, port);
        this.prefix = prefix;
    }

    /** Listing 6.24: a chat id from the counter unless given, every member at 0, then the first message. */
    String createChat(String sender, List<String> recipients, String message, String chatId) {
        String chat = chatId != null ? chatId : Long.toString(redis.incr(prefix + "ids:chat:"));
        List<String> everyone = new ArrayList<>(recipients);
        everyone.add(sender);
        Map<String, Double> atZero = new HashMap<>();
        everyone.forEach(member -> atZero.put(member, 0.0));
        Transaction multi = redis.multi();
        multi.zadd(prefix + "chat:" + chat, atZero);
        for (String member : everyone) {
            multi.zadd(prefix + "seen:" + member, 0, chat);
        }
        multi.exec();
        sendMessage(chat, sender, message);
        return chat;
    }

    /** Listing 6.25: INCR and ZADD under the chat's lock. */
    long sendMessage(String chat, String sender, String message) {
        String lock = "chat:" + chat;
        String identifier = acquireLock(lock, 10_000, 10_000);
        if (identifier == null) {
            throw new IllegalStateException("couldn't get the lock");
        }
        try {
            long id = redis.incr(prefix + "ids:" + chat);
            // time.time() has microseconds; repr() prints them in plain notation.
            String ts = BigDecimal.valueOf(System.currentTimeMillis(), 3).add(new BigDecimal("0.000123")).toPlainString();
            redis.zadd(prefix + "msgs:" + chat, id, pythonJson(id, ts, sender, message));
            return id;
        } finally {
            releaseLock(lock, identifier);
        }
    }

    /** Listing 6.26: everything above each seen id, then the cursors moved and the seen-by-all trimmed. */
    Map<String, List<Map<String, Object>>> fetchPendingMessages(String recipient) {
        List<Tuple> seen = redis.zrangeWithScores(prefix + "seen:" + recipient, 0, -1);
        Pipeline pipeline = redis.pipelined();
        List<Response<List<String>>> fetched = new ArrayList<>();
        for (Tuple chat : seen) {
            fetched.add(pipeline.zrangeByScore(prefix + "msgs:" + chat.getElement(), chat.getScore() + 1,
                    Double.POSITIVE_INFINITY));
        }
        pipeline.sync();

        Map<String, List<Map<String, Object>>> result = new HashMap<>();
        for (int i = 0; i < seen.size(); i++) {
            String chat = seen.get(i).getElement();
            List<Map<String, Object>> messages = new ArrayList<>();
            fetched.get(i).get().forEach(json -> messages.add(JsonObjects.parse(json)));
            result.put(chat, messages);
            if (messages.isEmpty()) {
                continue;
            }
            long seenId = ((Number) messages.getLast().get("id")).longValue();
            redis.zadd(prefix + "chat:" + chat, seenId, recipient);
            List<Tuple> minId = redis.zrangeWithScores(prefix + "chat:" + chat, 0, 0);
            Pipeline after = redis.pipelined();
            after.zadd(prefix + "seen:" + recipient, seenId, chat);
            if (!minId.isEmpty()) {
                after.zremrangeByScore(prefix + "msgs:" + chat, 0, minId.getFirst().getScore());
            }
            after.sync();
        }
        return result;
    }

    /** Listing 6.27: the new member starts at the chat's current id. */
    void joinChat(String chat, String user) {
        long messageId = Long.parseLong(redis.get(prefix + "ids:" + chat));
        Transaction multi = redis.multi();
        multi.zadd(prefix + "chat:" + chat, messageId, user);
        multi.zadd(prefix + "seen:" + user, messageId, chat);
        multi.exec();
    }

    /** Listing 6.28: the last one out deletes the messages and the counter. */
    void leaveChat(String chat, String user) {
        Transaction multi = redis.multi();
        multi.zrem(prefix + "chat:" + chat, user);
        multi.zrem(prefix + "seen:" + user, chat);
        Response<Long> remaining = multi.zcard(prefix + "chat:" + chat);
        multi.exec();
        if (remaining.get() == 0) {
            redis.del(prefix + "msgs:" + chat, prefix + "ids:" + chat);
        } else {
            List<Tuple> oldest = redis.zrangeWithScores(prefix + "chat:" + chat, 0, 0);
            redis.zremrangeByScore(prefix + "msgs:" + chat, 0, oldest.getFirst().getScore());
        }
    }

    /** Section 6.2's lock with a timeout: SETNX, then an expiry, retried until the deadline. */
    private String acquireLock(String name, long lockTimeoutMillis, long acquireTimeoutMillis) {
        String identifier = UUID.randomUUID().toString();
        String key = prefix + "lock:" + name;
        long end = System.currentTimeMillis() + acquireTimeoutMillis;
        while (System.currentTimeMillis() < end) {
            if (redis.setnx(key, identifier) == 1) {
                redis.pexpire(key, lockTimeoutMillis);
                return identifier;
            }
            if (redis.pttl(key) == -1) {
                redis.pexpire(key, lockTimeoutMillis);
            }
            LockSupport.parkNanos(1_000_000); // the book's time.sleep(.001)
        }
        return null;
    }

    /** Section 6.2's release: WATCH, check it is still ours, delete in MULTI. */
    private void releaseLock(String name, String identifier) {
        String key = prefix + "lock:" + name;
        redis.watch(key);
        if (identifier.equals(redis.get(key))) {
            Transaction multi = redis.multi();
            multi.del(key);
            multi.exec();
        } else {
            redis.unwatch();
        }
    }

    /** {@code json.dumps} of the book's dict: ", " and ": " separators, non-ASCII escaped. */
    static String pythonJson(long id, String ts, String sender, String message) {
        return "{\"id\": " + id + ", \"ts\": " + ts + ", \"sender\": " + pythonString(sender)
                + ", \"message\": " + pythonString(message) + "}";
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

    @Override
    public void close() {
        redis.close();
    }
}
