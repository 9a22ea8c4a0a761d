package dev.pigeonhole.adapter.postgres;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where the store lives and how long it may take to answer.
 *
 * @param url              a PgJDBC URL, {@code jdbc:postgresql://host:port/database}
 * @param password         never printed: {@link #toString()} leaves it out
 * @param schema           where the tables live; Flyway creates it if it is missing
 * @param poolSize         connections the pool holds at most; a caller that finds all busy waits up
 *                         to the connect timeout
 * @param connectTimeout   how long opening or borrowing a connection may take
 * @param statementTimeout how long one statement may run before the database cancels it
 * @param migrate          whether {@link PostgresStore} applies the migrations when it starts
 * @param ssl              PgJDBC's {@code sslmode} and {@code sslrootcert}, where the URL leaves them out
 */
public record PostgresSettings(String url, String user, String password, String schema, int poolSize,
                               Duration connectTimeout, Duration statementTimeout, boolean migrate,
                               PostgresSsl ssl) {

    public static final String DEFAULT_SCHEMA = "pigeonhole";
    /** Room for the live catch-ups a server allows at once (16) and the requests beside them. */
    public static final int DEFAULT_POOL_SIZE = 32;

    /** An unquoted PostgreSQL identifier, so the schema name needs no quoting anywhere. */
    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    public PostgresSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(statementTimeout, "statementTimeout");
        Objects.requireNonNull(ssl, "ssl");
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("a PostgreSQL URL starts with jdbc:postgresql:, not " + safeUrl(url));
        }
        if (schema == null || !SCHEMA.matcher(schema).matches()) {
            throw new IllegalArgumentException("a schema name is 1 to 63 of a-z, 0-9 and _, not starting with a "
                    + "digit; not '" + schema + "'");
        }
        if (poolSize < 1) {
            throw new IllegalArgumentException("the pool holds at least one connection, not " + poolSize);
        }
        if (connectTimeout.toMillis() < 250) {
            throw new IllegalArgumentException("the connect timeout is at least 250 ms, not " + connectTimeout);
        }
        if (statementTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("the statement timeout is at least 1 ms, not " + statementTimeout);
        }
        ssl.checkAgainst(url);
    }

    /**
     * The defaults: schema {@value #DEFAULT_SCHEMA}, 32 connections, 2 s to connect, 5 s a statement,
     * migrations on, SSL as the URL or PgJDBC says.
     */
    public static PostgresSettings of(String url, String user, String password) {
        return new PostgresSettings(url, user, password, DEFAULT_SCHEMA, DEFAULT_POOL_SIZE, Duration.ofSeconds(2),
                Duration.ofSeconds(5), true, PostgresSsl.DRIVER_DEFAULTS);
    }

    public PostgresSettings withSchema(String value) {
        return new PostgresSettings(url, user, password, value, poolSize, connectTimeout, statementTimeout, migrate,
                ssl);
    }

    public PostgresSettings withPoolSize(int value) {
        return new PostgresSettings(url, user, password, schema, value, connectTimeout, statementTimeout, migrate,
                ssl);
    }

    public PostgresSettings withTimeouts(Duration connect, Duration statement) {
        return new PostgresSettings(url, user, password, schema, poolSize, connect, statement, migrate, ssl);
    }

    /** Whether to apply the migrations at start; off when a deployment migrates on its own. */
    public PostgresSettings withMigrate(boolean value) {
        return new PostgresSettings(url, user, password, schema, poolSize, connectTimeout, statementTimeout, value,
                ssl);
    }

    /** How the connections use SSL, besides what the URL says; refused if the two disagree. */
    public PostgresSettings withSsl(PostgresSsl value) {
        return new PostgresSettings(url, user, password, schema, poolSize, connectTimeout, statementTimeout, migrate,
                value);
    }

    /** The URL without anything after {@code ?}, where a password may hide: what messages show. */
    public String endpoint() {
        return safeUrl(url);
    }

    @Override
    public String toString() {
        return "PostgresSettings[" + endpoint() + ", user=" + user + ", schema=" + schema + ", poolSize=" + poolSize
                + ", connectTimeout=" + connectTimeout + ", statementTimeout=" + statementTimeout
                + ", migrate=" + migrate + ", ssl=" + ssl + "]";
    }

    private static String safeUrl(String url) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        int at = base.indexOf('@');
        return at < 0 ? base : "jdbc:postgresql://" + base.substring(at + 1);
    }
}
