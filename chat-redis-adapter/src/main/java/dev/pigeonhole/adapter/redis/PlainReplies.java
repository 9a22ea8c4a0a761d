package dev.pigeonhole.adapter.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns what a client decoded into the plain values of the driver contract ({@code Long},
 * {@code String}, {@code List<Object>}, {@code null}), for the clients that hand over Java
 * objects (Jedis, Redisson). Most of a reply is already plain; what is not is mapped the way
 * RESP2 carries it, and what only one client produces (its byte arrays, its error type) that
 * client maps itself.
 */
public final class PlainReplies {

    /** Maps a value only this client produces, or throws: a nested error reply, say. */
    @FunctionalInterface
    public interface ClientValues {
        Object plain(String action, Object value);
    }

    private PlainReplies() {
    }

    public static Object plain(String action, Object reply, ClientValues client) {
        return switch (reply) {
            case null -> null;
            case Long l -> l;
            case String s -> s;
            case Integer i -> i.longValue();
            // Only RESP3 produces booleans; map them the way RESP2 carries a Lua boolean.
            case Boolean b -> b ? 1L : null;
            case List<?> list -> plainList(action, list, client);
            default -> client.plain(action, reply);
        };
    }

    /** What a client's values never hold: a type no driver maps. */
    public static IllegalStateException unmapped(String action, Object value) {
        return new IllegalStateException("Redis " + action + " returned a " + value.getClass().getName()
                + ", which the driver does not map");
    }

    /**
     * A client builds a list of its own for every reply and has usually decoded its elements as
     * the contract wants them, so a list is copied only from the first element that still needs
     * mapping: a reply of a thousand values (a pending over a hundred chats) is handed on as the
     * client built it, not built a second time.
     */
    private static List<?> plainList(String action, List<?> list, ClientValues client) {
        for (int i = 0; i < list.size(); i++) {
            Object element = list.get(i);
            Object plain = plain(action, element, client);
            if (plain != element) {
                List<Object> out = new ArrayList<>(list.size());
                out.addAll(list.subList(0, i));
                out.add(plain);
                for (int rest = i + 1; rest < list.size(); rest++) {
                    out.add(plain(action, list.get(rest), client));
                }
                return out;
            }
        }
        return list;
    }
}
