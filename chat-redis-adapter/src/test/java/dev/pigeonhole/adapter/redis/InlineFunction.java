package dev.pigeonhole.adapter.redis;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A test's own function, written as a script body that reads {@code KEYS} and {@code ARGV}: it is
 * registered in a library of its own under a name no other test uses (Redis's function names are
 * one namespace for every library), and the driver loads that library on the function's first
 * call, as it does for a node that lost the adapter's library.
 */
public final class InlineFunction {

    private InlineFunction() {
    }

    /** A function that may write, called with FCALL. */
    public static RedisFunction of(String name, String body) {
        return register(name, body, false);
    }

    /** A function registered {@code no-writes}, called with FCALL_RO, which a replica serves too. */
    public static RedisFunction reading(String name, String body) {
        return register(name, body, true);
    }

    private static RedisFunction register(String name, String body, boolean readOnly) {
        String unique = "test_" + name.replaceAll("[^A-Za-z0-9_]", "_") + "_"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        FunctionLibrary library = FunctionLibrary.of(unique, 1, "redis.register_function({ function_name = '" + unique
                + "', callback = function(KEYS, ARGV)\n" + body + "\nend, flags = { " + (readOnly ? "'no-writes'" : "")
                + " } })\n");
        return readOnly ? library.reading(unique) : library.writing(unique);
    }
}
