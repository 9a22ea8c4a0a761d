package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.RedisSettings;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** One Redis server, through {@link RedisClient}. */
final class NodeConnector extends Connector<StatefulRedisConnection<String, String>> {

    private final RedisURI uri;
    private final RedisClient client;

    private NodeConnector(RedisSettings settings, RedisURI uri, MeterRegistry metrics) {
        super(settings, metrics);
        this.uri = uri;
        this.client = RedisClient.create(resources, uri);
        client.setOptions(configure(ClientOptions.builder(), settings).build());
    }

    /** Reads the URL first, so that a malformed one fails before any thread is started. */
    static NodeConnector create(RedisSettings settings, RedisSettings.Single single, MeterRegistry metrics) {
        RedisURI.Builder builder = uri(settings, single.host(), single.port()).withDatabase(single.database());
        return new NodeConnector(settings, builder.build(), metrics);
    }

    @Override
    boolean isCluster() {
        return false;
    }

    @Override
    AbstractRedisClient client() {
        return client;
    }

    @Override
    CompletableFuture<StatefulRedisConnection<String, String>> connect() {
        return client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture();
    }

    @Override
    BaseRedisAsyncCommands<String, String> commandsOf(StatefulRedisConnection<String, String> connection) {
        return connection.async();
    }

    @Override
    CompletableFuture<Boolean> ping(StatefulRedisConnection<String, String> connection) {
        return connection.async().ping().toCompletableFuture().thenApply("PONG"::equalsIgnoreCase);
    }

    @Override
    CompletableFuture<StatefulRedisPubSubConnection<String, String>> connectPubSub(
            StatefulRedisConnection<String, String> connection) {
        return client.connectPubSubAsync(StringCodec.UTF8, uri).toCompletableFuture();
    }

    @Override
    Optional<String> nodeOf(StatefulRedisConnection<String, String> connection, String key) {
        return Optional.of(endpoint());
    }

    @Override
    CompletableFuture<?> refresh() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    List<String> primaries(StatefulRedisConnection<String, String> connection) {
        return List.of(endpoint());
    }

    @Override
    CompletableFuture<BaseRedisAsyncCommands<String, String>> commandsOn(StatefulRedisConnection<String, String> connection,
                                                                          String node) {
        return CompletableFuture.completedFuture(connection.async());
    }
}
