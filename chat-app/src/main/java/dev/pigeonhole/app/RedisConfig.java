package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.Durability;
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
 * @param clientName        what every connection of this process is named in CLIENT LIST
 *                          ({@value #DEFAULT_CLIENT_NAME} by default); one name per instance lets
 *                          an operator, or a benchmark, count one instance's connections apart
 * @param durability        how many replicas must hold a write before it is answered, and how
 *                          long to wait for them; shorter than {@code commandTimeout}, after which
 *                          the clients give up on the call that waits
 */
public record RedisConfig(RedisClientKind client, RedisSettings.Endpoint endpoint, Layout layout, String keyPrefix,
                          Duration connectTimeout, Duration commandTimeout, boolean patternsOnCluster, int poolSize,
                          String clientName, Durability durability) {

    public static final String DEFAULT_CLIENT_NAME = "pigeonhole";

    public enum Layout { TAGGED, BOOK }

    public RedisConfig {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(commandTimeout, "commandTimeout");
        Objects.requireNonNull(clientName, "clientName");
        Objects.requireNonNull(durability, "durability");
        if (poolSize < 1) {
            throw new IllegalArgumentException("the Redis pool size must be at least 1, not " + poolSize);
        }
        if (layout == Layout.BOOK && endpoint instanceof RedisSettings.Cluster) {
            throw new IllegalArgumentException("the book key layout is for a single Redis node; use the tagged layout "
                    + "with a cluster");
        }
        if (durability.waits() && durability.timeout().compareTo(commandTimeout) >= 0) {
            throw new IllegalArgumentException("--redis-durability waits up to " + durability.timeout().toMillis()
                    + " ms for replicas, which must be below the Redis command timeout of " + commandTimeout.toMillis()
                    + " ms, after which the clients give up on the call");
        }
    }

    /**
     * Lettuce, a local Redis on its default port, the tagged layout, no prefix, 2 s timeouts, no
     * patterns on a cluster, 128 pooled, named {@value #DEFAULT_CLIENT_NAME}, waiting for no replica.
     */
    public static RedisConfig defaults() {
        return new RedisConfig(RedisClientKind.LETTUCE, RedisSettings.Endpoint.single("redis://127.0.0.1:6379"), Layout.TAGGED,
                "", RedisSettings.DEFAULT_TIMEOUT, RedisSettings.DEFAULT_TIMEOUT, false, RedisSettings.DEFAULT_POOL_SIZE,
                DEFAULT_CLIENT_NAME, Durability.NONE);
    }

    public RedisConfig withClient(RedisClientKind value) {
        return new RedisConfig(value, endpoint, layout, keyPrefix, connectTimeout, commandTimeout, patternsOnCluster,
                poolSize, clientName, durability);
    }

    public RedisConfig withEndpoint(RedisSettings.Endpoint value) {
        return new RedisConfig(client, value, layout, keyPrefix, connectTimeout, commandTimeout, patternsOnCluster,
                poolSize, clientName, durability);
    }

    public RedisConfig withLayout(Layout value) {
        return new RedisConfig(client, endpoint, value, keyPrefix, connectTimeout, commandTimeout, patternsOnCluster,
                poolSize, clientName, durability);
    }

    public RedisConfig withKeyPrefix(String value) {
        return new RedisConfig(client, endpoint, layout, value, connectTimeout, commandTimeout, patternsOnCluster,
                poolSize, clientName, durability);
    }

    public RedisConfig withTimeouts(Duration connect, Duration command) {
        return new RedisConfig(client, endpoint, layout, keyPrefix, connect, command, patternsOnCluster,
                poolSize, clientName, durability);
    }

    public RedisConfig withPatternsOnCluster(boolean value) {
        return new RedisConfig(client, endpoint, layout, keyPrefix, connectTimeout, commandTimeout, value,
                poolSize, clientName, durability);
    }

    public RedisConfig withPoolSize(int value) {
        return new RedisConfig(client, endpoint, layout, keyPrefix, connectTimeout, commandTimeout, patternsOnCluster,
                value, clientName, durability);
    }

    /** Checked by {@link RedisSettings} when the client starts: 1 to 64 of A-Z a-z 0-9 . _ : -. */
    public RedisConfig withClientName(String value) {
        return new RedisConfig(client, endpoint, layout, keyPrefix, connectTimeout, commandTimeout, patternsOnCluster,
                poolSize, value, durability);
    }

    /** Writes wait for {@code value}'s replicas; {@link Durability#NONE} answers once the primary ran them. */
    public RedisConfig withDurability(Durability value) {
        return new RedisConfig(client, endpoint, layout, keyPrefix, connectTimeout, commandTimeout, patternsOnCluster,
                poolSize, clientName, value);
    }

    /** The client settings; the process's connections show up in CLIENT LIST under {@link #clientName}. */
    RedisSettings settings() {
        return new RedisSettings(endpoint, connectTimeout, commandTimeout, clientName, poolSize);
    }
}
