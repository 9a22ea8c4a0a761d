package dev.pigeonhole.testsupport.postgres;

import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * A running PostgreSQL that tests share: where it is and who to sign in as, which each module
 * turns into its own store's settings. Each store a test opens works in a schema of its own
 * ({@link #newSchema()}), which isolates its tables, and its live events too, since the adapter
 * puts the schema's name in front of every notification channel.
 *
 * @param url      the JDBC URL, {@code jdbc:postgresql://host:port/database}
 * @param password never shown by {@link #toString()}
 */
public record PostgresServer(String description, String url, String user, String password) {

    /**
     * The pool of each store a test opens: small, so that the many stores of a test run fit the
     * connections a server allows (the fixture's own allows {@value PostgresRecipe#MAX_CONNECTIONS}).
     */
    public static final int STORE_POOL_SIZE = 8;
    /** How long a test's store waits for a connection: generous, since a busy machine is slow to connect. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** How long a test's store lets a statement run. */
    public static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(10);

    public PostgresServer {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    /** A schema name no one has used: {@code t_} and 32 hex digits. The store creates it on first use. */
    public String newSchema() {
        return "t_" + UUID.randomUUID().toString().replace("-", "");
    }

    @Override
    public String toString() {
        return "PostgreSQL (" + description + ")";
    }
}
