package dev.pigeonhole.adapter.redis.jedis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.ClusterPipeline;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The cluster client, created on first use rather than in the driver's constructor: Jedis reads
 * the slot map when it is built, and a process that starts while the cluster is down should fail
 * its calls, not its start, and recover once the cluster is back.
 */
final class ClusterHandle implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterHandle.class);

    private record Established(ClusterConnectionProvider provider, RedisClusterClient client) {
    }

    private final Set<HostAndPort> seeds;
    private final JedisClientConfig config;
    private final GenericObjectPoolConfig<Connection> poolConfig;
    /** Reading a pipeline's replies blocks on a socket per node: a virtual thread each. */
    private final ExecutorService pipelineReaders = Executors.newVirtualThreadPerTaskExecutor();
    private volatile Established established;
    private boolean closed;

    ClusterHandle(Set<HostAndPort> seeds, JedisClientConfig config, GenericObjectPoolConfig<Connection> poolConfig) {
        this.seeds = Set.copyOf(seeds);
        this.config = config;
        this.poolConfig = poolConfig;
    }

    /** Tries to reach the cluster now; a failure is only logged, since calls will try again. */
    void warmUp() {
        try {
            established();
        } catch (RuntimeException e) {
            LOG.warn("Redis Cluster not reachable at start through {}: {}; calls will retry", seeds, e.getMessage());
        }
    }

    RedisClusterClient client() {
        return established().client();
    }

    /**
     * A pipeline over every node the calls reach. Jedis reads each node's replies on a thread of
     * its own, and unless given threads it starts a pool for every pipeline and stops it after:
     * about a millisecond each time, which made a batch over three nodes cost more than the
     * calls. The pipelines share this handle's threads instead.
     */
    ClusterPipeline pipelined() {
        return established().client().pipelined(pipelineReaders);
    }

    /** The primary that serves the channel's slot, after one topology refresh if none is known. */
    HostAndPort ownerOf(String channel) {
        ClusterConnectionProvider provider = established().provider();
        int slot = JedisClusterCRC16.getSlot(channel);
        HostAndPort node = provider.getNode(slot);
        if (node == null) {
            refresh();
            node = provider.getNode(slot);
        }
        if (node == null) {
            throw new JedisClusterOperationException("no node of the cluster serves slot " + slot);
        }
        return node;
    }

    /** Every node known, primaries and replicas, any of which can carry classic pub/sub. */
    List<HostAndPort> nodes() {
        List<HostAndPort> nodes = new ArrayList<>();
        Established current = established;
        if (current != null) {
            for (String key : current.provider().getNodes().keySet()) {
                nodes.add(HostAndPort.from(key));
            }
        }
        for (HostAndPort seed : seeds) {
            if (!nodes.contains(seed)) {
                nodes.add(seed);
            }
        }
        return nodes;
    }

    void refresh() {
        Established current = established;
        if (current == null) {
            return;
        }
        try {
            current.provider().renewSlotCache();
        } catch (RuntimeException e) {
            LOG.debug("cluster topology refresh failed: {}", e.getMessage());
        }
    }

    /**
     * Drops idle pooled connections after one of them turned out dead: they were opened to the
     * same servers and are likely dead as well, and each would otherwise fail one call.
     */
    void discardIdle() {
        Established current = established;
        if (current == null) {
            return;
        }
        for (ConnectionPool pool : current.provider().getNodes().values()) {
            try {
                pool.clear();
            } catch (RuntimeException e) {
                LOG.debug("could not clear a node pool: {}", e.getMessage());
            }
        }
    }

    /** Every primary's address, host:port. */
    List<String> primaries() {
        return List.copyOf(established().provider().getPrimaryNodes().keySet());
    }

    /** Sends a command that names no key to the primary at {@code node}, host:port. */
    Object onPrimary(String node, CommandArguments command) {
        try (Connection connection = established().provider().getConnection(HostAndPort.from(node))) {
            return connection.executeCommand(command);
        }
    }

    /** A pooled connection to the primary at {@code node}, host:port; closing it returns it. */
    Connection connectionTo(String node) {
        return established().provider().getConnection(HostAndPort.from(node));
    }

    /** True when every primary answers PING. */
    boolean pingAll() {
        Map<String, ConnectionPool> primaries = established().provider().getPrimaryNodes();
        if (primaries.isEmpty()) {
            return false;
        }
        for (ConnectionPool pool : primaries.values()) {
            try (Connection connection = pool.getResource()) {
                if (!connection.ping()) {
                    return false;
                }
            }
        }
        return true;
    }

    private Established established() {
        Established current = established;
        return current != null ? current : establish();
    }

    private synchronized Established establish() {
        if (closed) {
            throw new JedisException("the cluster client is closed");
        }
        if (established == null) {
            ClusterConnectionProvider provider = new ClusterConnectionProvider(seeds, config, poolConfig);
            try {
                RedisClusterClient client = RedisClusterClient.builder()
                        .nodes(seeds)
                        .clientConfig(config)
                        .connectionProvider(provider)
                        // One attempt: Jedis would otherwise repeat a call that timed out, which
                        // may run a script twice and multiplies the time a caller waits. The
                        // driver repeats only what a redirection proved never ran.
                        .maxAttempts(1)
                        .build();
                established = new Established(provider, client);
            } catch (RuntimeException e) {
                provider.close();
                throw e;
            }
        }
        return established;
    }

    @Override
    public synchronized void close() {
        closed = true;
        pipelineReaders.shutdown();
        Established current = established;
        established = null;
        if (current != null) {
            try {
                current.client().close();
            } finally {
                current.provider().close();
            }
        }
    }
}
