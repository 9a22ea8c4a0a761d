package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.testsupport.postgres.PostgresServers;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.util.Locale;

/**
 * The store configurations a whole-server test runs on, one run each: a store and, on Redis, the
 * client that reaches it. A Redis run keeps its keys and channels under a prefix of its own, a
 * PostgreSQL run its tables and channels in a schema of its own, so runs never see each other's
 * data and nothing is flushed.
 */
public enum StoreUnderTest {
    MEMORY(StoreKind.MEMORY, null),
    REDIS_THROUGH_JEDIS(StoreKind.REDIS, RedisClientKind.JEDIS),
    REDIS_THROUGH_LETTUCE(StoreKind.REDIS, RedisClientKind.LETTUCE),
    REDIS_THROUGH_REDISSON(StoreKind.REDIS, RedisClientKind.REDISSON),
    REDIS_THROUGH_GLIDE(StoreKind.REDIS, RedisClientKind.GLIDE),
    POSTGRES(StoreKind.POSTGRES, null);

    private final StoreKind store;
    private final RedisClientKind client;

    StoreUnderTest(StoreKind store, RedisClientKind client) {
        this.store = store;
        this.client = client;
    }

    boolean isRedis() {
        return store == StoreKind.REDIS;
    }

    /** How /health names this store: {@code memory}, {@code postgres}, or {@code redis (<client>} and where. */
    String healthName() {
        return isRedis() ? "redis (" + client.name().toLowerCase(Locale.ROOT) : store.name().toLowerCase(Locale.ROOT);
    }

    /** The configuration of a run: on the shared single Redis node under a fresh prefix, or PostgreSQL in a fresh schema. */
    public AppConfig config() {
        return switch (store) {
            case MEMORY -> AppConfig.defaults();
            case REDIS -> {
                RedisTarget redis = RedisServers.single();
                yield on(redis, redis.newPrefix());
            }
            case POSTGRES -> TestConfigs.onPostgres(TestConfigs.newSettings(PostgresServers.local()));
        };
    }

    /** On {@code redis} under {@code prefix}: a cluster, a Redis of the test's own, or a prefix the test looks into. */
    AppConfig on(RedisTarget redis, String prefix) {
        if (!isRedis()) {
            throw new IllegalStateException(this + " is not a Redis store");
        }
        return TestConfigs.onRedis(redis, prefix, client);
    }
}
