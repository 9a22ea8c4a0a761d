package dev.pigeonhole.benchmarks;

import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.app.AppConfig;
import dev.pigeonhole.app.RedisConfig;
import java.util.UUID;

/**
 * What a benchmark runs against, built through the composition root exactly as the server
 * builds it. Redis comes from {@code REDIS_URL} (a single node) or {@code REDIS_CLUSTER_NODES}
 * (host:port,...); {@code benchmarks/run.sh} starts its own and sets them.
 */
public enum Backend {
    IN_MEMORY, JEDIS, LETTUCE, JEDIS_CLUSTER, LETTUCE_CLUSTER;

    /** A configuration with a key prefix of its own, so runs never see each other's data. */
    public AppConfig config() {
        AppConfig defaults = AppConfig.defaults();
        return switch (this) {
            case IN_MEMORY -> defaults;
            case JEDIS -> defaults.withRedis(redis(RedisConfig.Client.JEDIS, single()));
            case LETTUCE -> defaults.withRedis(redis(RedisConfig.Client.LETTUCE, single()));
            case JEDIS_CLUSTER -> defaults.withRedis(redis(RedisConfig.Client.JEDIS, cluster()));
            case LETTUCE_CLUSTER -> defaults.withRedis(redis(RedisConfig.Client.LETTUCE, cluster()));
        };
    }

    private static RedisConfig redis(RedisConfig.Client client, RedisSettings.Endpoint endpoint) {
        return RedisConfig.defaults().withClient(client).withEndpoint(endpoint)
                .withKeyPrefix("bench-" + UUID.randomUUID().toString().substring(0, 8) + ":");
    }

    private static RedisSettings.Endpoint single() {
        return RedisSettings.Endpoint.single(required("REDIS_URL"));
    }

    private static RedisSettings.Endpoint cluster() {
        return RedisSettings.Endpoint.cluster(required("REDIS_CLUSTER_NODES"));
    }

    static String required(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(variable + " is not set: benchmarks/run.sh starts a Redis and sets it");
        }
        return value;
    }
}
