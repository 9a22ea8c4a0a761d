package dev.pigeonhole.testsupport.postgres;

import dev.pigeonhole.testsupport.CiPolicy;
import dev.pigeonhole.testsupport.Programs;
import dev.pigeonhole.testsupport.ServerProcess;
import dev.pigeonhole.testsupport.SharedServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The PostgreSQL server the tests of one JVM share, found as every shared server is
 * ({@link SharedServer}): from {@code POSTGRES_URL} (with {@code POSTGRES_USER} and
 * {@code POSTGRES_PASSWORD}), else from Debian's {@code initdb} and {@code postgres}, on the
 * {@code PATH} or in {@code /usr/lib/postgresql/<version>/bin}, started in a temporary directory
 * on a free loopback port. Tests keep apart by working in schemas of their own
 * ({@link PostgresServer#newSchema()}).
 */
public final class PostgresServers {

    public static final String POSTGRES_URL = "POSTGRES_URL";
    public static final String POSTGRES_USER = "POSTGRES_USER";
    public static final String POSTGRES_PASSWORD = "POSTGRES_PASSWORD";

    private static final String INSTALL = "install PostgreSQL 15+ so that initdb and postgres are on the PATH or in "
            + "/usr/lib/postgresql/<version>/bin (for example 'apt-get install postgresql')";
    private static final String OPENSSL = "openssl";
    private static final int CONNECT_MILLIS = 2000;

    private static final SharedServer<PostgresServer> SHARED = SharedServer.lookingFor(new SharedServer.Source<>(
            "the PostgreSQL", POSTGRES_URL, PostgresServers::named, PostgresServers::programs,
            programs -> server(ServerProcess.start(new PostgresRecipe(programs, Optional.empty())), ""),
            "No PostgreSQL for this test: set " + POSTGRES_URL + "=jdbc:postgresql://host:port/db (with "
                    + POSTGRES_USER + " and " + POSTGRES_PASSWORD + "), or " + INSTALL + "."));

    private PostgresServers() {
    }

    /** The shared server. Skips (or, on CI, fails) the calling test when there is none. */
    public static PostgresServer local() {
        return SHARED.get();
    }

    /**
     * A server of the caller's own, which it may take down and bring back (an outage test), and
     * must close. Only the programs can give one (a server named by {@code POSTGRES_URL} is not the
     * test's to stop), so without them the test skips, or fails on CI.
     */
    public static LocalPostgres own() {
        Programs programs = programs().orElseGet(() -> CiPolicy.unavailable(
                "This test stops and restarts PostgreSQL, so it needs its programs: " + INSTALL + "."));
        ServerProcess process = ServerProcess.start(new PostgresRecipe(programs, Optional.empty()));
        return new LocalPostgres(process, server(process, " (own)"), Optional.empty());
    }

    /**
     * A server of the caller's own that offers SSL, with a certificate authority made for it at
     * the start ({@link LocalPostgres#certificates()}); it accepts connections without SSL too.
     * Besides PostgreSQL's programs it needs {@code openssl}: without either the test skips, or
     * fails on CI. Starting one takes a second or two, so a test class shares one.
     */
    public static LocalPostgres ownWithSsl() {
        Programs programs = programs().orElseGet(() -> CiPolicy.unavailable(
                "This test starts PostgreSQL over SSL, so it needs its programs: " + INSTALL + "."));
        Path openssl = Programs.find(List.of(OPENSSL), List.of()).map(found -> found.path(OPENSSL))
                .orElseGet(() -> CiPolicy.unavailable("This test starts PostgreSQL over SSL with certificates made by "
                        + "openssl, which is not on the PATH: install it (for example 'apt-get install openssl')."));
        ServerProcess process = ServerProcess.start(new PostgresRecipe(programs, Optional.of(openssl)));
        return new LocalPostgres(process, server(process, " (own, SSL)"),
                Optional.of(PostgresCertificates.in(process.dir(), process.port())));
    }

    private static Optional<Programs> programs() {
        return Programs.find(List.of(PostgresRecipe.INITDB, PostgresRecipe.POSTGRES),
                Programs.newestFirst(Path.of("/usr/lib/postgresql"), "bin"));
    }

    private static PostgresServer server(ServerProcess process, String note) {
        return new PostgresServer(process + note, "jdbc:postgresql://127.0.0.1:" + process.port() + "/postgres",
                PostgresRecipe.USER, "");
    }

    /** The server {@code POSTGRES_URL} names, once something answers at its (first) host and port. */
    private static PostgresServer named(String url) {
        String user = Optional.ofNullable(System.getenv(POSTGRES_USER)).orElse("postgres");
        String password = Optional.ofNullable(System.getenv(POSTGRES_PASSWORD)).orElse("");
        int slashes = url.indexOf("//");
        if (!url.startsWith("jdbc:postgresql:") || slashes < 0) {
            throw new IllegalArgumentException(POSTGRES_URL + " is not a JDBC URL, jdbc:postgresql://host:port/database");
        }
        String hostAndPort = url.substring(slashes + 2).split("[/?,]", 2)[0];
        int colon = hostAndPort.lastIndexOf(':');
        String host = colon < 0 ? hostAndPort : hostAndPort.substring(0, colon);
        int port = colon < 0 ? 5432 : Integer.parseInt(hostAndPort.substring(colon + 1));
        PostgresServer server = new PostgresServer(POSTGRES_URL + " (" + host + ":" + port + ")", url, user, password);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), CONNECT_MILLIS);
        } catch (IOException e) {
            throw new IllegalStateException(server + " does not answer; fix or unset " + POSTGRES_URL, e);
        }
        return server;
    }
}
