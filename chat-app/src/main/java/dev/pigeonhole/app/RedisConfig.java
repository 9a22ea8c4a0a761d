package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.adapter.redis.RedisSettings;

import java.time.Duration;
import java.util.Objects;

/**
 * How to reach Redis and lay data out in it; used when the store is {@link StoreKind#REDIS}.
 *
 * @param client            which Java client carries the adapter's scripts
 * @param endpoint          a single node by URL, or a cluster by seed nodes
 * @param layout            where keys go: {@code TAGGED} (cluster-safe) or {@code BOOK} (Redis in Action's keys)
 * @param keyPrefix         put in front of every key and channel, to share one Redis between tenants
 * @param connectTimeout    how long a connection attempt may take
 * @param commandTimeout    how long a call may wait before the store counts as unavailable
 * @param patternsOnCluster on a cluster, also publish every event with classic PUBLISH, so that
 *                          pattern subscriptions hear it; off (the default, since the server
 *                          subscribes to none), each event is one SPUBLISH to its shard and a
 *                          pattern subscription is refused. A single node carries patterns either way.
 * @param poolSize          the most connections Jedis opens per node (Lettuce shares one)
 */
public record RedisConfig(RedisClientKind client, RedisSettings.Endpoint endpoint, Layout layout, String keyPrefix,
                          Duration connectTimeout, Duration commandTimeout, boolean patternsOnCluster, int poolSize) {

    public enum Layout { TAGGED, BOOK }

    public RedisConfig {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(commandTimeout, "commandTimeout");
        if (poolSize < 1) {
            throw new IllegalArgumentException("the Redis pool size must be at least 1, not " + poolSize);
        }
        if (layout == Layout.BOOK && endpoint instanceof RedisSettings.Cluster) {
            throw new IllegalArgumentException("the book key layout is for a single Redis node; use the tagged layout "
                    + "with a cluster");
        }
    }

    /**
     * Lettuce, a local Redis on its default port, the tagged layout, no prefix, 2 s timeouts, no
     * patterns on a cluster, 128 pooled.
     */
    public static RedisConfig defaults() {
        return new RedisConfig(RedisClientKind.LETTUCE, RedisSettings.Endpoint.single("redis://127.0.0.1:6379"), Layout.TAGGED,
                "", RedisSettings.DEFAULT_TIMEOUT, RedisSettings.DEFAULT_TIMEOUT, false, RedisSettings.DEFAULT_POOL_SIZE);
    }

    public RedisConfig withClient(RedisClientKind value) {
        return new RedisConfig(value, endpoint, layout, keyPrefix, connectTimeout, commandTimeout, patternsOnCluster, poolSize);
    }

    public RedisConfig withEndpoint(RedisSettings.Endpoint value) {
        return new RedisConfig(client, value, layout, keyPrefix, connectTimeout, commandTimeout, patternsOnCluster, poolSize);
    }

    public RedisConfig withLayout(Layout value) {
        return new RedisConfig(client, endpoint, value, keyPrefix, connectTimeout, commandTimeout, patternsOnCluster, poolSize);
    }

    public RedisConfig withKeyPrefix(String value) {
        return new RedisConfig(client, endpoint, layout, value, connectTimeout, commandTimeout, patternsOnCluster, poolSize);
    }

    public RedisConfig withTimeouts(Duration connect, Duration command) {
        return new RedisConfig(client, endpoint, layout, keyPrefix, connect, command, patternsOnCluster, poolSize);
    }

    public RedisConfig withPatternsOnCluster(boolean value) {
        return new RedisConfig(client, endpoint, layout, keyPrefix, connectTimeout, commandTimeout, value, poolSize);
    }

    public RedisConfig withPoolSize(int value) {
        return new RedisConfig(client, endpoint, layout, keyPrefix, connectTimeout, commandTimeout, patternsOnCluster, value);
    }

    /** The client settings; the process's connections show up in CLIENT LIST under this name. */
    RedisSettings settings() {
        return new RedisSettings(endpoint, connectTimeout, commandTimeout, "pigeonhole", poolSize);
    }
}
