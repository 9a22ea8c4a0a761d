package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.testsupport.postgres.PostgresServer;

/** The adapter's settings for a store on a server the test support found or started. */
final class PostgresTestSettings {

    private PostgresTestSettings() {
    }

    /** A store in a fresh schema, with the small pool and the timeouts a test's store uses. */
    static PostgresSettings newSettings(PostgresServer server) {
        return PostgresSettings.of(server.url(), server.user(), server.password())
                .withSchema(server.newSchema())
                .withPoolSize(PostgresServer.STORE_POOL_SIZE)
                .withTimeouts(PostgresServer.CONNECT_TIMEOUT, PostgresServer.STATEMENT_TIMEOUT);
    }
}
