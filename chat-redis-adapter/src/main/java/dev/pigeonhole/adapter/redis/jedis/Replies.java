package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.PlainReplies;
import dev.pigeonhole.adapter.redis.RedisFailures;
import java.nio.charset.StandardCharsets;
import redis.clients.jedis.exceptions.JedisDataException;

/** Turns what Jedis decoded into the plain values of the driver contract. */
final class Replies {

    private Replies() {
    }

    static Object normalize(String action, Object reply) {
        return PlainReplies.plain(action, reply, Replies::jedisValue);
    }

    private static Object jedisValue(String action, Object value) {
        return switch (value) {
            case byte[] bytes -> new String(bytes, StandardCharsets.UTF_8);
            // A Lua table may hold an error reply ({err = ...}); Redis passes it on nested.
            case JedisDataException error -> throw RedisFailures.callError(action, error.getMessage(), error);
            default -> throw PlainReplies.unmapped(action, value);
        };
    }
}
