package dev.pigeonhole.testsupport.postgres;

import dev.pigeonhole.testsupport.ServerProcess;

import java.util.Optional;

/** A PostgreSQL server one test owns: take it down, bring it back, close it. */
public final class LocalPostgres implements AutoCloseable {

    private final ServerProcess process;
    private final PostgresServer server;
    private final Optional<PostgresCertificates> certificates;

    LocalPostgres(ServerProcess process, PostgresServer server, Optional<PostgresCertificates> certificates) {
        this.process = process;
        this.server = server;
        this.certificates = certificates;
    }

    public PostgresServer server() {
        return server;
    }

    /** What a client needs to check the server's certificate; only a server started over SSL has one. */
    public PostgresCertificates certificates() {
        return certificates.orElseThrow(() -> new IllegalStateException(server + " was started without SSL; "
                + "ask PostgresServers.ownWithSsl() for one with it"));
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
