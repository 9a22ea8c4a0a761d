package dev.pigeonhole.testsupport.redis;

import dev.pigeonhole.testsupport.CiPolicy;
import dev.pigeonhole.testsupport.Programs;
import dev.pigeonhole.testsupport.ServerProcess;
import dev.pigeonhole.testsupport.SharedServer;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The Redis servers the tests of one JVM share, found as every shared server is
 * ({@link SharedServer}): a single node from {@code REDIS_URL}, else a {@code redis-server} from
 * the {@code PATH} started on a free loopback port; a cluster of three masters from
 * {@code REDIS_CLUSTER_NODES} ({@code host:port,...}), else three {@code redis-server} processes
 * the fixture forms into one.
 */
public final class RedisServers {

    public static final String REDIS_URL = "REDIS_URL";
    public static final String REDIS_CLUSTER_NODES = "REDIS_CLUSTER_NODES";

    private static final String INSTALL = "install Redis 7+ so that redis-server is on the PATH (for example "
            + "'apt-get install redis-server')";

    private static final SharedServer<RedisTarget> SINGLE = SharedServer.lookingFor(new SharedServer.Source<>(
            "the single-node Redis", REDIS_URL, RedisServers::named, RedisServers::programs,
            programs -> {
                ServerProcess server = ServerProcess.start(new RedisRecipe(binary(programs), false, false, List.of()));
                return RedisTarget.single(server.toString(), "redis://127.0.0.1:" + server.port());
            },
            "No Redis for this test: set " + REDIS_URL + "=redis://host:port, or " + INSTALL + "."));

    private static final SharedServer<RedisTarget> CLUSTER = SharedServer.lookingFor(new SharedServer.Source<>(
            "the Redis Cluster", REDIS_CLUSTER_NODES, RedisServers::namedCluster, RedisServers::programs,
            programs -> {
                String seeds = LocalCluster.seeds(LocalCluster.start(binary(programs)));
                return RedisTarget.cluster("local cluster " + seeds, seeds);
            },
            "No Redis Cluster for this test: set " + REDIS_CLUSTER_NODES + "=host:port,host:port,... (three masters, "
                    + "cluster_state:ok), or " + INSTALL + "."));

    private RedisServers() {
    }

    /** The shared single-node Redis. Skips (or, on CI, fails) the calling test when there is none. */
    public static RedisTarget single() {
        return SINGLE.get();
    }

    /** The shared Redis Cluster of (at least) three masters. Skips (or, on CI, fails) when there is none. */
    public static RedisTarget cluster() {
        return CLUSTER.get();
    }

    /**
     * The {@code redis-server} for a server a test owns, which only the program can give (a server
     * named by {@code REDIS_URL} is not the test's to stop); without it the calling test skips, or
     * fails on CI.
     */
    static Path requireBinary(String purpose) {
        return programs().map(RedisServers::binary).orElseGet(() -> CiPolicy.unavailable(
                "No redis-server on the PATH for " + purpose + ": " + INSTALL + "."));
    }

    private static Optional<Programs> programs() {
        return Programs.find(List.of(RedisRecipe.BINARY), List.of());
    }

    private static Path binary(Programs programs) {
        return programs.path(RedisRecipe.BINARY);
    }

    private static RedisTarget named(String url) {
        URI uri = URI.create(url);
        RedisTarget target = RedisTarget.single(REDIS_URL + " (" + uri.getHost() + ":" + uri.getPort() + ")", url);
        try {
            target.admin("PING");
        } catch (RuntimeException e) {
            throw new IllegalStateException(target + " does not answer PING; fix or unset " + REDIS_URL, e);
        }
        return target;
    }

    private static RedisTarget namedCluster(String seeds) {
        RedisTarget target = RedisTarget.cluster(REDIS_CLUSTER_NODES + "=" + seeds, seeds);
        for (Object info : target.commandOnMasters("CLUSTER", "INFO")) {
            if (!info.toString().contains("cluster_state:ok")) {
                throw new IllegalStateException(target + " is not in cluster_state:ok:\n" + info);
            }
        }
        return target;
    }
}
