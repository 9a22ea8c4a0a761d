package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.testsupport.postgres.PostgresServer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

/** Connections of a test's own, beside the adapter's pool: to look at the tables, or to end the adapter's sessions. */
final class PlainJdbc {

    private PlainJdbc() {
    }

    /** A plain connection working in {@code schema}. */
    static Connection connect(PostgresServer server, String schema) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", server.user());
        properties.setProperty("password", server.password());
        properties.setProperty("currentSchema", schema);
        return DriverManager.getConnection(server.url(), properties);
    }

    /**
     * Ends every session whose application name is {@code applicationName}, as a network failure
     * or a restart would end it, and says how many there were.
     */
    static int terminateSessions(PostgresServer server, String applicationName) {
        try (Connection admin = connect(server, "public");
             PreparedStatement terminate = admin.prepareStatement(
                     "select count(pg_terminate_backend(pid)) from pg_stat_activity where application_name = ?")) {
            terminate.setString(1, applicationName);
            try (ResultSet rows = terminate.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not end the sessions of " + applicationName + " on " + server, e);
        }
    }
}
