package dev.pigeonhole.testsupport.redis;

import dev.pigeonhole.testsupport.ServerRecipe;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How the fixture runs {@code redis-server}: on 127.0.0.1 only, saving nothing unless asked to be
 * durable, in its own directory.
 *
 * @param durable keeps an append-only file fsynced on every write, so that a restart loses nothing
 *                Redis acknowledged
 * @param options more {@code redis-server} options, such as {@code --replicaof 127.0.0.1 12345}
 * @param tls     when not null, the server speaks TLS only, on the port it is given
 */
record RedisRecipe(Path binary, boolean cluster, boolean durable, List<String> options, Tls tls) implements ServerRecipe {

    /**
     * TLS with these certificates, asking every client for a certificate the test CA signed when
     * {@code clientCertificateRequired}.
     */
    record Tls(RedisCertificates certificates, boolean clientCertificateRequired) {
    }

    RedisRecipe(Path binary, boolean cluster, boolean durable, List<String> options) {
        this(binary, cluster, durable, options, null);
    }

    static final String BINARY = "redis-server";
    /** A cluster node talks to the others on its port + 10000, which must be free as well. */
    private static final int CLUSTER_BUS_OFFSET = 10000;
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    RedisRecipe {
        options = List.copyOf(options);
    }

    @Override
    public String name() {
        return BINARY;
    }

    @Override
    public List<String> command(int port, Path dir) {
        List<String> command = new ArrayList<>(List.of(binary.toString(),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", durable ? "yes" : "no",
                "--appendfsync", "always",
                "--dir", dir.toString(),
                // A master waits 5 s by default for more replicas to share a sync with; a test's replica is alone.
                "--repl-diskless-sync-delay", "0",
                "--daemonize", "no",
                "--loglevel", "warning"));
        command.addAll(tls == null ? List.of("--port", Integer.toString(port))
                : tls.certificates().serverOptions(port, tls.clientCertificateRequired()));
        if (cluster) {
            command.addAll(List.of(
                    "--cluster-enabled", "yes",
                    "--cluster-config-file", dir.resolve("nodes-" + port + ".conf").toString(),
                    "--cluster-node-timeout", "5000"));
        }
        command.addAll(options);
        return command;
    }

    /** The server's own process id, from {@code INFO server}, tells this server from another on the port. */
    @Override
    public ServerRecipe.Readiness probe(int port, long pid, Path dir) {
        try (RespConnection redis = RespConnection.open(URI.create((tls == null ? "redis" : "rediss") + "://127.0.0.1:" + port),
                PROBE_TIMEOUT, RedisTarget.ADMIN_CLIENT_NAME, tls == null ? null : tls.certificates().socketFactory())) {
            String info = (String) redis.call("INFO", "server");
            long answering = info.lines()
                    .filter(line -> line.startsWith("process_id:"))
                    .mapToLong(line -> Long.parseLong(line.substring("process_id:".length()).strip()))
                    .findFirst()
                    .orElse(-1);
            return answering == pid ? ServerRecipe.Readiness.READY : ServerRecipe.Readiness.SOMEONE_ELSE;
        } catch (RuntimeException e) {
            // Not listening yet, or still loading its data: ask again.
            return ServerRecipe.Readiness.NOT_YET;
        }
    }

    @Override
    public List<Integer> alsoFree() {
        return cluster ? List.of(CLUSTER_BUS_OFFSET) : List.of();
    }
}
