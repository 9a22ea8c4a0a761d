package dev.pigeonhole.adapter.redis;

import java.util.List;
import java.util.Objects;

/**
 * One invocation of a {@link LuaScript}. On a cluster every key must hash to the same slot; the
 * key layout guarantees it by giving every key of a chat (or of a user) the same hash tag.
 */
public record ScriptCall(LuaScript script, List<String> keys, List<String> args) {

    public ScriptCall {
        Objects.requireNonNull(script, "script");
        keys = List.copyOf(keys);
        args = List.copyOf(args);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException(script.name() + " needs at least one key: the key routes it");
        }
    }
}
