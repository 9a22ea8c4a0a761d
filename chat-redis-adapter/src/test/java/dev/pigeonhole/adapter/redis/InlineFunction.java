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

    public static RedisFunction of(String name, String body) {
        String unique = "test_" + name.replaceAll("[^A-Za-z0-9_]", "_") + "_"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        FunctionLibrary library = FunctionLibrary.of(unique, 1,
                "redis.register_function('" + unique + "', function(KEYS, ARGV)\n" + body + "\nend)\n");
        return library.writing(unique);
    }
}
