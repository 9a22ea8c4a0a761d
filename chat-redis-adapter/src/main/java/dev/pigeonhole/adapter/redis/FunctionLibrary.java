package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A Redis Functions library: Lua that Redis loads once ({@code FUNCTION LOAD}) and whose functions
 * every call then names ({@code FCALL}), instead of a script sent, or at least named by digest, and
 * run from its first line on every call.
 *
 * <p>A library carries a version, which it answers from a function of its own
 * ({@code <name>_version}). A server makes sure each primary holds its version before it calls
 * anything: it loads the library where there is none, replaces an older one, and refuses to go
 * on where it finds a newer one, so that two servers of different releases on one Redis do not
 * replace each other's library back and forth. A node that loses the library later answers
 * "function not found", and the call that heard it loads the library and tries once more.
 */
public final class FunctionLibrary {

    private final String name;
    private final int version;
    private final String source;

    private FunctionLibrary(String name, int version, String source) {
        this.name = Objects.requireNonNull(name, "name");
        this.version = version;
        this.source = Objects.requireNonNull(source, "source");
    }

    /**
     * A library from its body, which registers its functions: the {@code #!lua} line that names
     * the library, {@code local VERSION = <version>} and the version function go in front.
     */
    public static FunctionLibrary of(String name, int version, String body) {
        String header = "#!lua name=" + name + "\n"
                + "local VERSION = " + version + "\n"
                + "redis.register_function({ function_name = '" + name + "_version', callback = function() return VERSION end,"
                + " flags = { 'no-writes' } })\n";
        return new FunctionLibrary(name, version, header + body);
    }

    /**
     * A library from the files {@code lua/<file>.lua} beside this class: the shared ones first, then
     * each chapter in a {@code do ... end} block of its own, so that a chapter's local names (the
     * chat's {@code last_id} and the mailbox's) are its own.
     */
    static FunctionLibrary assemble(String name, int version, List<String> shared, List<List<String>> chapters) {
        StringBuilder body = new StringBuilder();
        shared.forEach(file -> body.append(resource(file)).append('\n'));
        for (List<String> chapter : chapters) {
            body.append("do\n");
            chapter.forEach(file -> body.append(resource(file)).append('\n'));
            body.append("end\n");
        }
        return of(name, version, body.toString());
    }

    public String name() {
        return name;
    }

    public int version() {
        return version;
    }

    /** The text FUNCTION LOAD takes. */
    public String source() {
        return source;
    }

    /** A function of this library that may write. */
    public RedisFunction writing(String function) {
        return new RedisFunction(this, function, false);
    }

    /** A function of this library registered {@code no-writes}. */
    public RedisFunction reading(String function) {
        return new RedisFunction(this, function, true);
    }

    /** Makes sure every primary holds this version of the library; see the class comment. */
    public void install(RedisDriver driver) {
        for (String node : driver.primaries()) {
            ensureOn(driver, node);
        }
    }

    /**
     * Runs {@code attempt}, the call of a function of this library; if its node knows no such
     * function, makes sure the node holds this library and runs it once more.
     */
    public static <T> T loadingOnMiss(RedisDriver driver, FunctionCall call, Supplier<T> attempt) {
        try {
            return attempt.get();
        } catch (MissingFunctionException e) {
            call.function().library().ensureOn(driver, driver.currentNodeOf(call.routingKey()));
            return attempt.get();
        }
    }

    /** Loads this library on the node unless it holds it already, in this version or a newer one. */
    void ensureOn(RedisDriver driver, String node) {
        Long held = heldVersion(driver, node);
        if (held == null) {
            try {
                driver.onNode(node, List.of("FUNCTION", "LOAD", source));
                return;
            } catch (IllegalStateException e) {
                if (!String.valueOf(e.getMessage()).contains("already exists")) {
                    throw e;
                }
            }
            // Another server loaded it since: its version decides, as below. A library of this
            // name with no version function at all predates versions, so it is older.
            held = heldVersion(driver, node);
            if (held == null) {
                held = 0L;
            }
        }
        if (held > version) {
            throw new StoreUnavailableException("Redis at " + node + " holds version " + held + " of the " + name
                    + " function library, newer than this server's version " + version
                    + ": a server of a later release uses this Redis; run one release on every server", null);
        }
        if (held < version) {
            driver.onNode(node, List.of("FUNCTION", "LOAD", "REPLACE", source));
        }
    }

    private Long heldVersion(RedisDriver driver, String node) {
        try {
            return (Long) driver.onNode(node, List.of("FCALL_RO", name + "_version", "0"));
        } catch (MissingFunctionException e) {
            return null;
        }
    }

    private static String resource(String file) {
        String path = "lua/" + file + ".lua";
        try (InputStream in = FunctionLibrary.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing library file " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read library file " + path, e);
        }
    }

    @Override
    public String toString() {
        return name + " (version " + version + ")";
    }
}
