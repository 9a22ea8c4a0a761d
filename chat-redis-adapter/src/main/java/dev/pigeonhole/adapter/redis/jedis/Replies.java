package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.RedisFailures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
            case List<?> list -> normalizeList(action, list);
            case Integer i -> i.longValue();
            // Only RESP3 produces booleans; map them the way RESP2 carries a Lua boolean.
            case Boolean b -> b ? 1L : null;
            // A Lua table may hold an error reply ({err = ...}); Redis passes it on nested.
            case JedisDataException error -> throw RedisFailures.callError(action, error.getMessage(), error);
            default -> throw new IllegalStateException(
                    "Redis " + action + " returned a " + reply.getClass().getName() + ", which the driver does not map");
        };
    }

    /**
     * Jedis builds a list of its own for every reply and has already decoded bulk strings and
     * integers as the contract wants them, so a list is copied only from the first element that
     * still needs mapping: a reply of a thousand values (a pending over a hundred chats) is handed
     * on as Jedis built it, not built a second time.
     */
    private static List<?> normalizeList(String scriptName, List<?> list) {
        for (int i = 0; i < list.size(); i++) {
            Object element = list.get(i);
            Object normalized = normalize(scriptName, element);
            if (normalized != element) {
                List<Object> out = new ArrayList<>(list.size());
                out.addAll(list.subList(0, i));
                out.add(normalized);
                for (int rest = i + 1; rest < list.size(); rest++) {
                    out.add(normalize(scriptName, list.get(rest)));
                }
                return out;
            }
        }
        return list;
    }
}
