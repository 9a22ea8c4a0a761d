package dev.pigeonhole.testsupport;

import org.junit.jupiter.api.Assumptions;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a test does without something it needs, a Redis, a PostgreSQL or a browser: it is skipped,
 * with the reason and how to get what it lacks, except when the environment says {@code CI=true},
 * where it fails, so that a CI run cannot go green by skipping everything.
 *
 * <p>A skipped test is easy to miss among hundreds that passed, so each reason is also printed,
 * once, on standard error.
 */
public final class CiPolicy {

    /** The environment variable that declares a CI run when it is {@code true}. */
    public static final String CI = "CI";

    private static final Set<String> SAID = ConcurrentHashMap.newKeySet();

    private CiPolicy() {
    }

    /** True when the environment declares a CI run, where whatever is missing fails the tests that need it. */
    public static boolean onCi() {
        return "true".equalsIgnoreCase(System.getenv(CI));
    }

    /**
     * Ends the calling test for want of something it needs: skipped with {@code reason}, or failed
     * with it on CI. Never returns normally; the type parameter lets a caller write
     * {@code return unavailable(...)} wherever it would have returned what it lacks.
     */
    public static <T> T unavailable(String reason) {
        if (onCi()) {
            throw new AssertionError(reason + " (" + CI + "=true, so this fails instead of being skipped)");
        }
        if (SAID.add(reason)) {
            System.err.println("SKIPPED: " + reason);
        }
        return Assumptions.abort(reason);
    }
}
