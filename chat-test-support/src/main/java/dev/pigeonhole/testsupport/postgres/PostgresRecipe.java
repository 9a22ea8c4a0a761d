package dev.pigeonhole.testsupport.postgres;

import dev.pigeonhole.testsupport.Programs;
import dev.pigeonhole.testsupport.ServerRecipe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the fixture runs PostgreSQL: Debian's {@code initdb} makes a cluster in the server's
 * directory, trusting local sign-ins, and {@code postgres} serves it on 127.0.0.1, tuned for tests
 * (no fsync, nothing waits for the disk). Given {@code openssl}, the server also offers SSL, with
 * certificates made for it ({@link PostgresCertificates}); initdb's {@code host} lines admit a
 * sign-in with SSL or without, so the client's {@code sslmode} alone decides.
 */
record PostgresRecipe(Programs programs, Optional<Path> openssl) implements ServerRecipe {

    static final String INITDB = "initdb";
    static final String POSTGRES = "postgres";
    /** The user the cluster is made for, which signs in without a password. */
    static final String USER = "pigeonhole";
    static final int MAX_CONNECTIONS = 200;
    /** PostgreSQL refuses to run as root; Debian's package makes this user for it. */
    private static final String SYSTEM_USER = "postgres";

    @Override
    public String name() {
        return POSTGRES;
    }

    @Override
    public List<List<String>> preparation(Path dir) {
        List<List<String>> steps = new ArrayList<>();
        steps.add(List.of(programs.path(INITDB).toString(),
                "--pgdata=" + data(dir),
                "--username=" + USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync"));
        openssl.ifPresent(program -> steps.addAll(PostgresCertificates.commands(program, dir)));
        return steps;
    }

    @Override
    public List<String> command(int port, Path dir) {
        List<String> command = new ArrayList<>(List.of(programs.path(POSTGRES).toString(),
                "-D", data(dir).toString(),
                "-p", Integer.toString(port),
                "-c", "listen_addresses=127.0.0.1",
                "-c", "unix_socket_directories=" + dir,
                "-c", "fsync=off",
                "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off",
                "-c", "max_connections=" + MAX_CONNECTIONS));
        if (openssl.isPresent()) {
            command.addAll(PostgresCertificates.serverSettings(dir));
        }
        return command;
    }

    /**
     * The cluster's {@code postmaster.pid} names the server's process on its first line, its port
     * on the fourth, and says {@code ready} on the eighth once it accepts connections. A server
     * that found the port taken exits instead, which the caller sees.
     */
    @Override
    public ServerRecipe.Readiness probe(int port, long pid, Path dir) {
        try {
            List<String> lines = Files.readAllLines(data(dir).resolve("postmaster.pid"), StandardCharsets.UTF_8);
            boolean ours = !lines.isEmpty() && lines.getFirst().strip().equals(Long.toString(pid));
            boolean ready = lines.size() >= 8 && lines.get(3).strip().equals(Integer.toString(port))
                    && lines.get(7).strip().equals("ready");
            return ours && ready ? ServerRecipe.Readiness.READY : ServerRecipe.Readiness.NOT_YET;
        } catch (IOException e) {
            // Not written yet.
            return ServerRecipe.Readiness.NOT_YET;
        }
    }

    /** SIGTERM would be a "smart" shutdown, which waits for every session to end: at exit some pools are open still. */
    @Override
    public ServerRecipe.Signal stopSignal() {
        return ServerRecipe.Signal.INT;
    }

    @Override
    public Optional<String> userWhenRoot() {
        return Optional.of(SYSTEM_USER);
    }

    @Override
    public Duration startTimeout() {
        return Duration.ofSeconds(30);
    }

    private static Path data(Path dir) {
        return dir.resolve("data");
    }
}
