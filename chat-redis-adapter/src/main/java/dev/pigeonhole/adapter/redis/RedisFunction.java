package dev.pigeonhole.adapter.redis;

import java.util.Objects;

/**
 * A function of a {@link FunctionLibrary}, by the exact name FCALL takes. One that writes nothing
 * is called with FCALL_RO, which Redis refuses for a function that may write, and which a replica
 * may serve.
 */
public record RedisFunction(FunctionLibrary library, String name, boolean readOnly) {

    public RedisFunction {
        Objects.requireNonNull(library, "library");
        Objects.requireNonNull(name, "name");
    }

    /** FCALL or FCALL_RO. */
    public String command() {
        return readOnly ? "FCALL_RO" : "FCALL";
    }

    @Override
    public String toString() {
        return name;
    }
}
