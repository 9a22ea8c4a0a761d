package dev.pigeonhole.testsupport.redis;

import dev.pigeonhole.testsupport.ServerProcess;
import org.awaitility.core.ConditionTimeoutException;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;

/**
 * A private single-node {@code redis-server} that one test owns and may crash and bring back, for
 * fault tests. It keeps its port across {@link #restart()}, so clients configured with its
 * {@link #target()} find it again. A server from {@link #start()} keeps nothing across a restart;
 * one from {@link #startDurable()} keeps everything it acknowledged.
 *
 * <p>Only the {@code redis-server} program can give one (a shared server is not a test's to
 * kill); without it the calling test is skipped, or fails on CI.
 */
public final class LocalRedisServer implements AutoCloseable {

    private final ServerProcess process;
    private final RedisTarget target;

    private LocalRedisServer(ServerProcess process) {
        this.process = process;
        this.target = RedisTarget.single("private " + process, "redis://127.0.0.1:" + process.port());
    }

    private LocalRedisServer(ServerProcess process, RedisCertificates certificates) {
        this.process = process;
        this.target = RedisTarget.single("private " + process, "rediss://127.0.0.1:" + process.port(),
                certificates.socketFactory());
    }

    /**
     * Starts a server that speaks TLS only, with {@code certificates}, asking every client for a
     * certificate the test CA signed when {@code clientCertificateRequired}; its {@link #target()}
     * talks TLS too.
     */
    public static LocalRedisServer startTls(RedisCertificates certificates, boolean clientCertificateRequired) {
        return new LocalRedisServer(ServerProcess.start(new RedisRecipe(
                RedisServers.requireBinary("a private Redis over TLS"), false, false, List.of(),
                new RedisRecipe.Tls(certificates, clientCertificateRequired))), certificates);
    }

    /** Starts a server on a free loopback port and returns once it answers. */
    public static LocalRedisServer start() {
        return started(false, List.of());
    }

    /**
     * Like {@link #start()}, with an append-only file fsynced on every write kept across
     * {@link #restart()}: whatever Redis acknowledged survives a crash, as in a deployment that
     * promises durability.
     */
    public static LocalRedisServer startDurable() {
        return started(true, List.of());
    }

    /**
     * Starts a read-only replica of {@code master} (Redis's default for a replica) and returns
     * once it has copied the master's data set and follows it, so that it answers reads with the
     * master's data and refuses writes with {@code READONLY}.
     */
    public static LocalRedisServer startReplicaOf(LocalRedisServer master) {
        LocalRedisServer replica = started(false, List.of("--replicaof", "127.0.0.1", Integer.toString(master.port())));
        try {
            replica.awaitFollowing(master);
            return replica;
        } catch (ConditionTimeoutException e) {
            replica.close();
            throw new IllegalStateException("the replica on port " + replica.port() + " did not connect to its master on "
                    + master.port(), e);
        }
    }

    /**
     * Waits until this replica follows {@code master} and acknowledges its writes: its link is
     * up, and a write on the master is confirmed by {@code WAIT} for every replica the master
     * has. A master lists a replica online as soon as a sync ends, yet (after a diskless sync)
     * sends it the stream of writes only once the replica's first acknowledgement arrives, up to
     * a second later; a WAIT before then cannot count it.
     */
    public void awaitFollowing(LocalRedisServer master) {
        String listed = "port=" + port() + ",state=online";
        try (RespConnection probe = RespConnection.open(URI.create("redis://127.0.0.1:" + master.port()),
                Duration.ofSeconds(5), RedisTarget.ADMIN_CLIENT_NAME)) {
            await().atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                    .until(() -> {
                        String info = master.target.admin("INFO", "replication");
                        if (!info.contains(listed) || !target.admin("INFO", "replication").contains("master_link_status:up")) {
                            return false;
                        }
                        long replicas = info.lines().filter(line -> line.startsWith("connected_slaves:"))
                                .mapToLong(line -> Long.parseLong(line.substring("connected_slaves:".length()).strip()))
                                .findFirst().orElse(0);
                        // A PUBLISH is replicated and touches no key: a write WAIT can count.
                        probe.call("PUBLISH", "ph-fixture:replication-probe", "1");
                        return (Long) probe.call("WAIT", Long.toString(replicas), "100") >= replicas;
                    });
        }
    }

    private static LocalRedisServer started(boolean durable, List<String> options) {
        return new LocalRedisServer(ServerProcess.start(new RedisRecipe(
                RedisServers.requireBinary("a private Redis a test can stop"), false, durable, options)));
    }

    public int port() {
        return process.port();
    }

    /** This server as a target, for its address and the admin helpers (which need it running). */
    public RedisTarget target() {
        return target;
    }

    public boolean isRunning() {
        return process.isRunning();
    }

    /** Kills the server (SIGKILL, like a crash) and returns once it is gone. Harmless when stopped. */
    public void stop() {
        process.kill();
    }

    /** Freezes the server (SIGSTOP): connected but silent, as a stalled machine leaves it. */
    public void freeze() {
        process.freeze();
    }

    /** Lets a frozen server go on. */
    public void thaw() {
        process.thaw();
    }

    /** Starts it again on the same port (stopping it first if it runs) and returns once it answers. */
    public void restart() {
        process.restart();
    }

    /** Stops the server for good and deletes its directory. Idempotent. */
    @Override
    public void close() {
        process.close();
    }

    @Override
    public String toString() {
        return "LocalRedisServer[127.0.0.1:" + port() + (isRunning() ? ", running" : ", stopped") + "]";
    }
}
