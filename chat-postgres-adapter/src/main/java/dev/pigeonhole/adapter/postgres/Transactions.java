package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.StoreUnavailableException;

import javax.net.ssl.SSLException;
import javax.sql.DataSource;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Objects;
import java.util.Set;

/**
 * Runs a unit of work on a pooled connection, in a transaction or as one autocommitted
 * statement, and is the one place that decides what a failure means. A serialization failure or
 * a deadlock is the database asking to try again, so the work runs again, up to {@value #ATTEMPTS}
 * times in all; a database that is away, shutting down, read-only, out of connections or too slow
 * is the domain's {@link StoreUnavailableException}; anything else is a bug here and says so.
 * No JDBC type leaves: what the work throws that is not an {@link SQLException} (a domain refusal,
 * say) rolls the transaction back and goes on unchanged.
 */
final class Transactions {

    static final int ATTEMPTS = 3;

    /** Try again: the same work may well succeed on a second run. */
    private static final Set<String> RETRYABLE = Set.of(
            "40001", // serialization_failure
            "40P01"); // deadlock_detected

    /** The database is not serving, by name; class 08 (connection exceptions) and 53 (resources) as classes. */
    private static final Set<String> UNAVAILABLE = Set.of(
            "57P01", // admin_shutdown
            "57P02", // crash_shutdown
            "57P03", // cannot_connect_now: starting up or shutting down
            "57014", // query_canceled: the statement timeout ran out
            "25006", // read_only_sql_transaction: a standby, or default_transaction_read_only
            "28000", // invalid_authorization_specification
            "28P01", // invalid_password
            "3D000"); // invalid_catalog_name: the database does not exist

    /** One unit of work against a connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final DataSource pool;
    private final String endpoint;

    Transactions(DataSource pool, String endpoint) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    }

    /** Runs {@code work} in one transaction, committed when it returns and rolled back when it throws. */
    <T> T inTransaction(String action, Work<T> work) {
        return withRetries(action, true, work);
    }

    /**
     * Runs {@code work} with autocommit on: for a single statement, which is atomic by itself, and
     * saves the two round trips of {@code BEGIN} and {@code COMMIT}.
     */
    <T> T autocommit(String action, Work<T> work) {
        return withRetries(action, false, work);
    }

    /**
     * Runs {@code work} in a read-only transaction that sees one snapshot of the database
     * (repeatable read), so that several statements agree with each other without locking
     * anything: what pending and the chat list need.
     */
    <T> T readOnly(String action, Work<T> work) {
        return inTransaction(action, connection -> {
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            return work.run(connection);
        });
    }

    private <T> T withRetries(String action, boolean transaction, Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return once(transaction, work);
            } catch (SQLException e) {
                if (attempt < ATTEMPTS && e.getSQLState() != null && RETRYABLE.contains(e.getSQLState())) {
                    continue;
                }
                throw failure(endpoint, action, e);
            }
        }
    }

    private <T> T once(boolean transaction, Work<T> work) throws SQLException {
        try (Connection connection = pool.getConnection()) {
            if (!transaction) {
                return work.run(connection);
            }
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                rollbackQuietly(connection, e);
                throw e;
            }
        }
    }

    /**
     * What a failure means to the caller: the store is unavailable, or this adapter has a bug.
     * Shared with the listening connection, which meets the same failures outside a pool.
     */
    static RuntimeException failure(String endpoint, String action, SQLException e) {
        String message = "PostgreSQL at " + endpoint + " could not serve " + action + ": " + describe(e);
        if (unavailable(e)) {
            return new StoreUnavailableException(message, e);
        }
        return new IllegalStateException(message + " (SQLSTATE " + e.getSQLState() + ")", e);
    }

    /**
     * The driver's message, but for an SSL handshake that failed: PgJDBC's then quotes the JDK's,
     * class names and all, so it is said here in words and with the innermost reason alone.
     * (Refusals PgJDBC words itself, a server without SSL or a host name the certificate does not
     * hold, pass as they are.)
     */
    private static String describe(SQLException e) {
        Throwable ssl = e.getCause();
        while (ssl != null && !(ssl instanceof SSLException)) {
            ssl = ssl.getCause();
        }
        if (ssl == null) {
            return e.getMessage();
        }
        Throwable innermost = ssl;
        boolean certificate = false;
        for (Throwable cause = ssl; cause != null; cause = cause.getCause()) {
            certificate |= cause instanceof CertificateException || cause instanceof CertPathBuilderException
                    || cause instanceof CertPathValidatorException;
            innermost = cause;
        }
        return certificate
                ? "the SSL handshake failed: the server's certificate is not one this client trusts ("
                        + innermost.getMessage() + ")"
                : "the SSL handshake failed: " + innermost.getMessage();
    }

    static boolean unavailable(SQLException e) {
        if (e instanceof SQLTransientConnectionException || e instanceof SQLRecoverableException) {
            return true; // the pool's borrow timeout, or a connection that broke
        }
        String state = e.getSQLState();
        if (state == null) {
            return false;
        }
        return state.startsWith("08") || state.startsWith("53") || UNAVAILABLE.contains(state);
    }

    private static void rollbackQuietly(Connection connection, Throwable failure) {
        try {
            connection.rollback();
        } catch (SQLException rollback) {
            // A broken connection cannot roll back; the pool discards it, and the database ends the transaction.
            failure.addSuppressed(rollback);
        }
    }
}
