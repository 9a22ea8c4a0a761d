package dev.pigeonhole.testsupport.redis;

import dev.pigeonhole.testsupport.ServerProcess;

import java.time.Duration;
import org.awaitility.core.ConditionTimeoutException;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;

/**
 * A private cluster of three masters that one test owns and may reconfigure in ways the shared
 * cluster must never see, such as requiring a password. Like {@link LocalRedisServer}, it needs
 * the {@code redis-server} program; without it the calling test is skipped, or fails on CI.
 */
public final class LocalRedisCluster implements AutoCloseable {

    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);

    private final List<ServerProcess> servers;
    private final RedisTarget target;

    private LocalRedisCluster(List<ServerProcess> servers) {
        this.servers = new ArrayList<>(servers);
        String seeds = LocalCluster.seeds(servers);
        this.target = RedisTarget.cluster("private cluster " + seeds, seeds);
    }

    private LocalRedisCluster(List<ServerProcess> servers, RedisCertificates certificates) {
        this.servers = new ArrayList<>(servers);
        String seeds = LocalCluster.seeds(servers);
        this.target = RedisTarget.cluster("private cluster over TLS " + seeds, seeds, null, certificates.socketFactory());
    }

    /** As {@link #start()}, every node speaking TLS only with {@code certificates}, to clients and on the bus. */
    public static LocalRedisCluster startTls(RedisCertificates certificates) {
        return new LocalRedisCluster(LocalCluster.start(RedisServers.requireBinary("a private Redis Cluster over TLS"),
                certificates), certificates);
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

    /**
     * Starts one more server and makes it a replica of {@code master}; returns once it has
     * copied the master's data (and with it the master's function libraries).
     */
    public RedisNode addReplicaOf(RedisNode master) {
        ServerProcess server = ServerProcess.start(new RedisRecipe(RedisServers.requireBinary("a replica"), true, false,
                List.of()));
        servers.add(server);
        RedisNode replica = new RedisNode("127.0.0.1", server.port());
        String masterId = ((String) target.command(master, "CLUSTER", "MYID"));
        target.command(replica, "CLUSTER", "MEET", master.host(), Integer.toString(master.port()));
        await().atMost(SETTLE_TIMEOUT).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                .until(() -> target.command(replica, "CLUSTER", "NODES").toString().contains(masterId));
        target.command(replica, "CLUSTER", "REPLICATE", masterId);
        String replicaId = (String) target.command(replica, "CLUSTER", "MYID");
        // A takeover hands the replica the slots it believes its master serves, so the replica
        // must have learnt them from the master's gossip first, not only the master's name; and
        // the master must know its replica, or it keeps claiming the slots after the takeover.
        await().atMost(SETTLE_TIMEOUT).pollInterval(Duration.ofMillis(20))
                .until(() -> target.command(replica, "INFO", "replication").toString().contains("master_link_status:up")
                        && slotsOf(target.command(replica, "CLUSTER", "NODES").toString(), masterId)
                                .equals(slotsOf(target.command(master, "CLUSTER", "NODES").toString(), masterId))
                        && lineOf(target.command(master, "CLUSTER", "NODES").toString(), replicaId)
                                .contains(" slave " + masterId + " "));
        return replica;
    }

    private static String lineOf(String clusterNodes, String nodeId) {
        return clusterNodes.lines().filter(line -> line.startsWith(nodeId + " ")).findFirst().orElse("");
    }

    /** The slot ranges on a node's CLUSTER NODES line: every field after the eighth. */
    private static List<String> slotsOf(String clusterNodes, String nodeId) {
        String[] fields = lineOf(clusterNodes, nodeId).split(" ");
        return fields.length <= 8 ? List.of() : List.of(fields).subList(8, fields.length);
    }

    /**
     * Has {@code replica} take over its master's slots at once (CLUSTER FAILOVER TAKEOVER, which
     * asks no other master for a vote, as a failover after a master's death ends); returns once
     * the former master reports itself a replica and every node of the cluster names the new
     * master for those slots, so a client refreshing its slot map from any node finds it.
     */
    public void failOver(RedisNode replica, RedisNode master) {
        String replicaId = (String) target.command(replica, "CLUSTER", "MYID");
        List<String> slots = slotsOf(target.command(master, "CLUSTER", "NODES").toString(),
                (String) target.command(master, "CLUSTER", "MYID"));
        target.command(replica, "CLUSTER", "FAILOVER", "TAKEOVER");
        try {
            await().atMost(SETTLE_TIMEOUT).pollInterval(Duration.ofMillis(20))
                    .until(() -> target.command(master, "INFO", "replication").toString().contains("role:slave")
                            && target.command(replica, "INFO", "replication").toString().contains("role:master")
                            && servers.stream().map(server -> new RedisNode("127.0.0.1", server.port()))
                                    .allMatch(node -> slotsOf(target.command(node, "CLUSTER", "NODES").toString(),
                                            replicaId).equals(slots)));
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the failover to " + replica + " did not settle; the replica's view:\n"
                    + target.command(replica, "CLUSTER", "NODES") + "\nthe master's view:\n"
                    + target.command(master, "CLUSTER", "NODES"), e);
        }
    }

    /** Freezes the node's server (SIGSTOP): connected but silent, as a stalled machine leaves it. */
    public void freeze(RedisNode node) {
        serverOf(node).freeze();
    }

    /** Lets a frozen node go on. */
    public void thaw(RedisNode node) {
        serverOf(node).thaw();
    }

    private ServerProcess serverOf(RedisNode node) {
        return servers.stream().filter(server -> server.port() == node.port()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(node + " is not a server of " + this));
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
