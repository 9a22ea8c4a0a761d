package dev.pigeonhole.testsupport.redis;

import dev.pigeonhole.testsupport.ServerProcess;

import java.util.List;

/**
 * A private cluster of three masters that one test owns and may reconfigure in ways the shared
 * cluster must never see, such as requiring a password. Like {@link LocalRedisServer}, it needs
 * the {@code redis-server} program; without it the calling test is skipped, or fails on CI.
 */
public final class LocalRedisCluster implements AutoCloseable {

    private final List<ServerProcess> servers;
    private final RedisTarget target;

    private LocalRedisCluster(List<ServerProcess> servers) {
        this.servers = servers;
        String seeds = LocalCluster.seeds(servers);
        this.target = RedisTarget.cluster("private cluster " + seeds, seeds);
    }

    /** Starts three servers and forms them into a cluster; returns once every node agrees on the slots. */
    public static LocalRedisCluster start() {
        return new LocalRedisCluster(LocalCluster.start(RedisServers.requireBinary("a private Redis Cluster")));
    }

    /** This cluster as a target, for its address and the admin helpers. */
    public RedisTarget target() {
        return target;
    }

    /**
     * Makes every node require {@code password} from its clients ({@code requirepass}), as a
     * protected deployment does. The nodes still talk to each other, since the cluster bus does not
     * authenticate; the helpers on {@link #target()} send no password and cannot reach the cluster
     * any more.
     */
    public void requirePassword(String password) {
        for (RedisNode node : target.nodes()) {
            target.command(node, "CONFIG", "SET", "requirepass", password);
        }
    }

    /** Stops every server and deletes their directories. Idempotent. */
    @Override
    public void close() {
        servers.forEach(ServerProcess::close);
    }

    @Override
    public String toString() {
        return "LocalRedisCluster[" + LocalCluster.seeds(servers) + "]";
    }
}
