package dev.pigeonhole.testsupport;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A server that every test of one JVM shares, looked for on first use and only then, in the one
 * order every store's fixture follows:
 * <ol>
 * <li>the environment variable that names a server ({@code REDIS_URL}, {@code POSTGRES_URL}...):
 *     one somebody runs on purpose always wins, and a container is used this way, by naming it;</li>
 * <li>else the store's own programs on this machine, started by the fixture on a free loopback
 *     port ({@link ServerProcess}) and stopped through their process handles when the JVM exits;</li>
 * <li>else nothing, and every test that asks is skipped saying how to get a server, or fails
 *     on CI ({@link CiPolicy}).</li>
 * </ol>
 * No container engine is tried by the fixture itself: none runs on the build machines, so such a
 * path would only be one that nothing exercises.
 *
 * <p>What the first look found, a server, the reason there is none, or why setting one up broke,
 * is kept, so that every later test gets the same answer at once.
 *
 * @param <T> what a test is handed: the server's address and helpers
 */
public final class SharedServer<T> {

    private final Source<T> source;
    private Found<T> found;

    private SharedServer(Source<T> source) {
        this.source = source;
    }

    /** Looks for a server as {@code source} says, the first time one is asked for. */
    public static <T> SharedServer<T> lookingFor(Source<T> source) {
        return new SharedServer<>(source);
    }

    /** The shared server. Skips (or, on CI, fails) the calling test when there is none. */
    public T get() {
        Found<T> answer;
        synchronized (this) {
            if (found == null) {
                found = look();
            }
            answer = found;
        }
        return answer.server(source.what());
    }

    private Found<T> look() {
        try {
            String named = System.getenv(source.variable());
            if (named != null && !named.isBlank()) {
                return new Found<>(source.named().apply(named.strip()), null, null);
            }
            Optional<Programs> programs = source.programs().get();
            if (programs.isPresent()) {
                return new Found<>(source.started().apply(programs.get()), null, null);
            }
            return new Found<>(null, source.missing(), null);
        } catch (RuntimeException e) {
            return new Found<>(null, null, e);
        }
    }

    /**
     * Where a server can come from.
     *
     * @param what     the server in words, for messages: "a single-node Redis"
     * @param variable the environment variable that names one
     * @param named    reaches the server the variable names and checks that it answers, or throws
     *                 saying so
     * @param programs the store's programs on this machine, if there are any
     * @param started  starts a server from those programs
     * @param missing  what to say when there is neither: how to get a server
     */
    public record Source<T>(String what, String variable, Function<String, T> named,
                            Supplier<Optional<Programs>> programs, Function<Programs, T> started, String missing) {
    }

    private record Found<T>(T reachable, String missingReason, RuntimeException broken) {

        T server(String what) {
            if (reachable != null) {
                return reachable;
            }
            if (missingReason != null) {
                return CiPolicy.unavailable(missingReason);
            }
            throw new IllegalStateException(what + " for the tests could not be set up: " + broken, broken);
        }
    }
}
