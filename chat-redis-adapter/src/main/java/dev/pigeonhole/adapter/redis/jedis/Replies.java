package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.RedisFailures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import redis.clients.jedis.exceptions.JedisDataException;

/** Turns what Jedis decoded into the plain values of the driver contract. */
final class Replies {

    private Replies() {
    }

    static Object normalize(String action, Object reply) {
        return switch (reply) {
            case null -> null;
            case Long l -> l;
            case String s -> s;
            case byte[] bytes -> new String(bytes, StandardCharsets.UTF_8);
            case List<?> list -> {
                List<Object> out = new ArrayList<>(list.size());
                for (Object element : list) {
                    out.add(normalize(action, element));
                }
                yield Collections.unmodifiableList(out);
            }
            case Integer i -> i.longValue();
            // Only RESP3 produces booleans; map them the way RESP2 carries a Lua boolean.
            case Boolean b -> b ? 1L : null;
            // A Lua table may hold an error reply ({err = ...}); Redis passes it on nested.
            case JedisDataException error -> throw RedisFailures.callError(action, error.getMessage(), error);
            default -> throw new IllegalStateException(
                    "Redis " + action + " returned a " + reply.getClass().getName() + ", which the driver does not map");
        };
    }
}
