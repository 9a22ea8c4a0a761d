package dev.pigeonhole.app;

import dev.pigeonhole.adapter.postgres.PostgresSettings;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.testsupport.postgres.PostgresServer;
import dev.pigeonhole.testsupport.redis.RedisTarget;

import java.time.Duration;

/** The composition root's configuration on the servers the test support found or started. */
final class TestConfigs {

    private TestConfigs() {
    }

    /**
     * The same configuration with every write admitted: for tests that send faster than a person
     * to see how live delivery copes, which is not what the rate limits are for.
     */
    static AppConfig unthrottled(AppConfig config) {
        return config.withLimits(config.limits().withRates(RateLimits.NONE));
    }

    /** Redis at {@code target} through {@code client}, the tagged layout, keys and channels under {@code prefix}. */
    static AppConfig onRedis(RedisTarget target, String prefix, RedisClientKind client) {
        // Generous timeouts: these tests are about behaviour, and a busy 2-core machine is slow to connect.
        return AppConfig.defaults().withRedis(RedisConfig.defaults()
                .withClient(client).withEndpoint(endpoint(target)).withKeyPrefix(prefix)
                .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10)));
    }

    /** Where the target is, as the app's settings take it: its URL, or a cluster's seeds. */
    static RedisSettings.Endpoint endpoint(RedisTarget target) {
        return target.isCluster()
                ? RedisSettings.Endpoint.cluster(target.address())
                : RedisSettings.Endpoint.single(target.address());
    }

    /**
     * PostgreSQL as {@code settings} say. The fixture's pools are small, so that the many stores of
     * a test run fit one server; the catch-ups allowed at once stay below the pool.
     */
    static AppConfig onPostgres(PostgresSettings settings) {
        return AppConfig.defaults().withLiveCatchUps(Math.max(1, settings.poolSize() / 2)).withPostgres(settings);
    }

    /** A store in a fresh schema of {@code server}, with the small pool and the timeouts a test's store uses. */
    static PostgresSettings newSettings(PostgresServer server) {
        return PostgresSettings.of(server.url(), server.user(), server.password())
                .withSchema(server.newSchema())
                .withPoolSize(PostgresServer.STORE_POOL_SIZE)
                .withTimeouts(PostgresServer.CONNECT_TIMEOUT, PostgresServer.STATEMENT_TIMEOUT);
    }
}
