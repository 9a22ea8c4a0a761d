package dev.pigeonhole.testsupport.postgres;

import dev.pigeonhole.testsupport.ServerProcess;

/** A PostgreSQL server one test owns: take it down, bring it back, close it. */
public final class LocalPostgres implements AutoCloseable {

    private final ServerProcess process;
    private final PostgresServer server;

    LocalPostgres(ServerProcess process, PostgresServer server) {
        this.process = process;
        this.server = server;
    }

    public PostgresServer server() {
        return server;
    }

    /** Stops it as an outage would (a fast shutdown, its sessions ended); its data and its port stay. */
    public void takeDown() {
        process.stop();
    }

    /** Starts it again on the same data and port, and returns once it answers. */
    public void bringBack() {
        process.restart();
    }

    /** Stops it for good and deletes its data. */
    @Override
    public void close() {
        process.close();
    }
}
