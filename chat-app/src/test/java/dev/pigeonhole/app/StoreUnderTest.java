package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.testsupport.postgres.PostgresServers;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;

/**
 * The stores a whole-server test runs on, one run each: memory, one Redis node through each
 * client, and PostgreSQL. A Redis run keeps its keys and channels under a prefix of its own, a
 * PostgreSQL run its tables and channels in a schema of its own, so runs never see each other's
 * data and nothing is flushed.
 */
enum StoreUnderTest {
    MEMORY(null),
    REDIS_THROUGH_JEDIS(RedisClientKind.JEDIS),
    REDIS_THROUGH_LETTUCE(RedisClientKind.LETTUCE),
    POSTGRES(null);

    private final RedisClientKind client;

    StoreUnderTest(RedisClientKind client) {
        this.client = client;
    }

    boolean isRedis() {
        return client != null;
    }

    /** The configuration of a run: on the shared single Redis node under a fresh prefix, or PostgreSQL in a fresh schema. */
    AppConfig config() {
        if (this == POSTGRES) {
            return LiveServers.onPostgres(LiveServers.newSettings(PostgresServers.local()));
        }
        if (!isRedis()) {
            return AppConfig.defaults();
        }
        RedisTarget redis = RedisServers.single();
        return onRedis(redis, redis.newPrefix());
    }

    /** On {@code redis} under {@code prefix}, for a test that looks at the keys afterwards. */
    AppConfig onRedis(RedisTarget redis, String prefix) {
        if (!isRedis()) {
            throw new IllegalStateException(this + " is not a Redis store");
        }
        return LiveServers.onRedis(LiveServers.endpoint(redis), prefix, client);
    }
}
