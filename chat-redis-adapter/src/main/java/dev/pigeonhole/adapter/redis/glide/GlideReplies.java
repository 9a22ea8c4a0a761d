package dev.pigeonhole.adapter.redis.glide;

import dev.pigeonhole.adapter.redis.RedisFailures;
import glide.api.models.GlideString;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Turns what GLIDE decoded into the plain values of the driver contract. GLIDE gives an array as
 * {@code Object[]} and may give {@code GlideString}s; under RESP3 a map, a double or a boolean is
 * possible for a command other than a function (a function's reply is converted to RESP2 shapes by
 * Redis itself).
 */
final class GlideReplies {

    private GlideReplies() {
    }

    static Object normalize(String action, Object reply) {
        return switch (reply) {
            case null -> null;
            case Long l -> l;
            case String s -> s;
            case Object[] array -> list(action, Arrays.asList(array));
            case GlideString s -> s.getString();
            case Integer i -> i.longValue();
            // As RESP2 carries a Lua boolean: true is 1, false is nil.
            case Boolean b -> b ? 1L : null;
            case Double d -> d.toString();
            // RESP3 maps arrive keyed; the contract knows only flat arrays, as RESP2 sends them.
            case Map<?, ?> map -> {
                List<Object> flat = new ArrayList<>(map.size() * 2);
                map.forEach((key, value) -> {
                    flat.add(normalize(action, key));
                    flat.add(normalize(action, value));
                });
                yield flat;
            }
            // A Lua table may hold an error reply ({err = ...}); it comes nested.
            case Throwable error when GlideFailures.isErrorReply(error) ->
                    throw RedisFailures.callError(action, GlideFailures.redisText(error.getMessage()), error);
            default -> throw new IllegalStateException(
                    "Redis " + action + " returned a " + reply.getClass().getName() + ", which the driver does not map");
        };
    }

    private static List<Object> list(String action, List<?> elements) {
        List<Object> out = new ArrayList<>(elements.size());
        for (Object element : elements) {
            out.add(normalize(action, element));
        }
        return out;
    }
}
