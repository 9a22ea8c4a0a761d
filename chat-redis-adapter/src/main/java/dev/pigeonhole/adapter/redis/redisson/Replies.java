package dev.pigeonhole.adapter.redis.redisson;

import org.redisson.client.protocol.RedisCommand;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Turns what Redisson decoded into the plain values of the driver contract. */
final class Replies {

    private Replies() {
    }

    /** A command whose reply Redisson hands over as decoded, in whatever shape it has. */
    static RedisCommand<Object> command(String name) {
        return new RedisCommand<>(name);
    }

    static Object plain(Object reply) {
        return switch (reply) {
            case null -> null;
            case Long l -> l;
            case String s -> s;
            case Integer i -> i.longValue();
            // Over RESP2 a Lua true is the integer 1 and a Lua false is nil.
            case Boolean b -> b ? 1L : null;
            case List<?> list -> plainList(list);
            default -> throw new IllegalStateException("Redis answered a " + reply.getClass().getName()
                    + ", which the driver does not map");
        };
    }

    private static List<Object> plainList(List<?> list) {
        List<Object> out = new ArrayList<>(list.size());
        for (Object element : list) {
            out.add(plain(element));
        }
        return out;
    }

    /** The primary, host:port, that CLUSTER SLOTS names for {@code slot}. */
    static Optional<String> ownerOf(Object clusterSlots, int slot) {
        if (!(clusterSlots instanceof List<?> ranges)) {
            return Optional.empty();
        }
        for (Object range : ranges) {
            if (range instanceof List<?> r && r.size() >= 3 && r.get(0) instanceof Long start && r.get(1) instanceof Long end
                    && start <= slot && slot <= end && r.get(2) instanceof List<?> master && master.size() >= 2) {
                return Optional.of(master.get(0) + ":" + master.get(1));
            }
        }
        return Optional.empty();
    }
}
