package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.RedisSettings;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A Redis Cluster, through {@link RedisClusterClient}: one logical connection that routes each
 * command by its first key to a connection of the slot's master, and follows MOVED and ASK.
 */
final class ClusterConnector extends Connector<StatefulRedisClusterConnection<String, String>> {

    /**
     * Besides refreshing on MOVED, ASK and repeated reconnects (Lettuce 7 does that by default),
     * re-read the topology now and then, so that a failover no command ran into yet is noticed too.
     */
    private static final Duration PERIODIC_REFRESH = Duration.ofSeconds(30);

    private final RedisClusterClient client;

    ClusterConnector(RedisSettings settings, RedisSettings.Cluster cluster, MeterRegistry metrics) {
        super(settings, metrics);
        // Lettuce gives every node connection the first seed's settings, the client name and the
        // credentials included.
        List<RedisURI> seeds = cluster.seeds().stream().map(seed -> uri(settings, seed.host(), seed.port()).build()).toList();
        this.client = RedisClusterClient.create(resources, seeds);
        ClusterClientOptions.Builder options = configure(ClusterClientOptions.builder(), settings);
        options.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                .enablePeriodicRefresh(PERIODIC_REFRESH)
                .build());
        client.setOptions(options.build());
    }

    @Override
    boolean isCluster() {
        return true;
    }

    @Override
    AbstractRedisClient client() {
        return client;
    }

    @Override
    CompletableFuture<StatefulRedisClusterConnection<String, String>> connect() {
        // Connecting asynchronously needs the topology loaded first; its blocking loader would
        // stall the constructor's background attempt.
        return client.refreshPartitionsAsync().toCompletableFuture()
                .thenCompose(loaded -> client.connectAsync(StringCodec.UTF8))
                .thenCompose(this::connectMasters);
    }

    /**
     * Opens the connection to every master before the first command. Lettuce connects to a node
     * on its first command and, told to reject commands while disconnected, refuses the commands
     * that arrive while that connection is still being made. A master that cannot be reached now
     * does not fail the whole connection: its slots fail until Lettuce reaches it.
     */
    private CompletableFuture<StatefulRedisClusterConnection<String, String>> connectMasters(
            StatefulRedisClusterConnection<String, String> connection) {
        CompletableFuture<?>[] masters = masters(connection).stream()
                .map(node -> connection.getConnectionAsync(node.getUri().getHost(), node.getUri().getPort())
                        .handle((nodeConnection, failure) -> nodeConnection))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(masters).thenApply(all -> connection);
    }

    private static List<RedisClusterNode> masters(StatefulRedisClusterConnection<String, String> connection) {
        return connection.getPartitions().stream()
                .filter(node -> node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.hasNoSlots())
                .toList();
    }

    @Override
    BaseRedisAsyncCommands<String, String> commandsOf(StatefulRedisClusterConnection<String, String> connection) {
        return connection.async();
    }

    /** Every master must answer: with one of them gone, part of the data cannot be reached. */
    @Override
    CompletableFuture<Boolean> ping(StatefulRedisClusterConnection<String, String> connection) {
        List<CompletableFuture<Boolean>> pongs = masters(connection).stream()
                // host and port, not node id: the same pooled connection the slot routing uses
                .map(node -> connection.getConnectionAsync(node.getUri().getHost(), node.getUri().getPort())
                        .thenCompose(nodeConnection -> nodeConnection.async().ping())
                        .thenApply("PONG"::equalsIgnoreCase))
                .toList();
        if (pongs.isEmpty()) {
            return CompletableFuture.completedFuture(false);
        }
        return CompletableFuture.allOf(pongs.toArray(CompletableFuture[]::new))
                .thenApply(all -> pongs.stream().allMatch(CompletableFuture::join));
    }

    @Override
    CompletableFuture<StatefulRedisClusterPubSubConnection<String, String>> connectPubSub(
            StatefulRedisClusterConnection<String, String> connection) {
        return client.connectPubSubAsync(StringCodec.UTF8);
    }

    @Override
    Optional<String> nodeOf(StatefulRedisClusterConnection<String, String> connection, String key) {
        return Optional.ofNullable(connection.getPartitions().getPartitionBySlot(SlotHash.getSlot(key)))
                .map(node -> node.getUri().getHost() + ":" + node.getUri().getPort());
    }

    @Override
    CompletableFuture<?> refresh() {
        return client.refreshPartitionsAsync().toCompletableFuture();
    }

    @Override
    List<String> primaries(StatefulRedisClusterConnection<String, String> connection) {
        return masters(connection).stream().map(node -> node.getUri().getHost() + ":" + node.getUri().getPort()).toList();
    }

    @Override
    CompletableFuture<BaseRedisAsyncCommands<String, String>> commandsOn(
            StatefulRedisClusterConnection<String, String> connection, String node) {
        int colon = node.lastIndexOf(':');
        return connection.getConnectionAsync(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1)))
                .thenApply(nodeConnection -> (BaseRedisAsyncCommands<String, String>) nodeConnection.async())
                .toCompletableFuture();
    }
}
