package dev.pigeonhole.adapter.redis;

import java.util.List;
import java.util.Objects;

/**
 * One call of a {@link RedisFunction}. The first key routes it, on a cluster to the node serving
 * its slot; every key of a call must hash to that slot, which the key layout guarantees by giving
 * every key of a chat (or of a user) the same hash tag.
 */
public record FunctionCall(RedisFunction function, List<String> keys, List<String> args) {

    public FunctionCall {
        Objects.requireNonNull(function, "function");
        keys = List.copyOf(keys);
        args = List.copyOf(args);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException(function.name() + " needs at least one key: the key routes it");
        }
    }

    /** The key that routes the call. */
    public String routingKey() {
        return keys.getFirst();
    }
}
