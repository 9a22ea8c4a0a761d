package dev.pigeonhole.benchmarks;

import dev.pigeonhole.adapter.postgres.PostgresSettings;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.app.AppConfig;
import dev.pigeonhole.app.RedisConfig;
import dev.pigeonhole.app.StoreKind;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimits;

import java.util.Optional;
import java.util.UUID;

/**
 * What a benchmark runs against, built through the composition root exactly as the server
 * builds it: a store ({@link StoreKind}) and, on Redis, a client ({@link RedisClientKind}) and a
 * single node or a cluster. The constants' names are the JMH parameter {@code backend} that
 * {@code run.sh} passes and {@code RESULTS.md} records.
 *
 * <p>Redis comes from {@code REDIS_URL} (a single node) or {@code REDIS_CLUSTER_NODES}
 * (host:port,...); PostgreSQL from {@code POSTGRES_URL} (a JDBC URL), {@code POSTGRES_USER}
 * (default {@value #DEFAULT_POSTGRES_USER}) and {@code POSTGRES_PASSWORD} (default none).
 * {@code benchmarks/run.sh} starts its own Redis and PostgreSQL and sets them.
 */
public enum Backend {
    IN_MEMORY(StoreKind.MEMORY, null, false),
    JEDIS(StoreKind.REDIS, RedisClientKind.JEDIS, false),
    LETTUCE(StoreKind.REDIS, RedisClientKind.LETTUCE, false),
    JEDIS_CLUSTER(StoreKind.REDIS, RedisClientKind.JEDIS, true),
    LETTUCE_CLUSTER(StoreKind.REDIS, RedisClientKind.LETTUCE, true),
    POSTGRES(StoreKind.POSTGRES, null, false),
    /** Measured in the client comparison only, which runs every client on the single node. */
    REDISSON(StoreKind.REDIS, RedisClientKind.REDISSON, false),
    /** Measured in the client comparison only, which runs every client on the single node. */
    GLIDE(StoreKind.REDIS, RedisClientKind.GLIDE, false);

    static final String DEFAULT_POSTGRES_USER = "pigeonhole";

    private final StoreKind store;
    private final RedisClientKind client;
    private final boolean onCluster;

    Backend(StoreKind store, RedisClientKind client, boolean onCluster) {
        this.store = store;
        this.client = client;
        this.onCluster = onCluster;
    }

    /** The backend of a Redis client on the single node. */
    public static Backend onSingleNode(RedisClientKind client) {
        for (Backend backend : values()) {
            if (backend.client == client && !backend.onCluster) {
                return backend;
            }
        }
        throw new IllegalArgumentException("no single-node backend for " + client);
    }

    /** The Redis client, or empty for a store without one. */
    public Optional<RedisClientKind> client() {
        return Optional.ofNullable(client);
    }

    /**
     * A configuration with a key prefix or a schema of its own, so runs never see each other's
     * data. Each call is a fresh one: a trial that builds its system from it starts empty. No
     * rate limits: one user sending as fast as it can is the point, and the store is measured,
     * not the limiter (the server under load runs without them too). Anyone may add anyone, as in
     * the book the baseline runs: a member named at creation is then a member, not an invitee
     * whose pending list stays empty until it accepts.
     */
    public AppConfig config() {
        AppConfig defaults = AppConfig.defaults().withLimits(Limits.DEFAULTS.withRates(RateLimits.NONE))
                .withConsent(ConsentLimits.DEFAULTS.withDefaultPolicy(AddPolicy.ANYONE));
        return switch (store) {
            case MEMORY -> defaults;
            case REDIS -> defaults.withRedis(RedisConfig.defaults().withClient(client)
                    .withEndpoint(onCluster ? cluster() : single()).withKeyPrefix("bench-" + runId() + ":"));
            case POSTGRES -> defaults.withPostgres(postgres());
        };
    }

    private static RedisSettings.Endpoint single() {
        return RedisSettings.Endpoint.single(required("REDIS_URL"));
    }

    private static RedisSettings.Endpoint cluster() {
        return RedisSettings.Endpoint.cluster(required("REDIS_CLUSTER_NODES"));
    }

    /** A schema no earlier trial used, which the store creates and migrates when it starts. */
    private static PostgresSettings postgres() {
        String user = optional("POSTGRES_USER").orElse(DEFAULT_POSTGRES_USER);
        String password = optional("POSTGRES_PASSWORD").orElse("");
        return PostgresSettings.of(required("POSTGRES_URL"), user, password).withSchema("bench_" + runId());
    }

    /** Eight hex digits: lower case, so it also fits an unquoted PostgreSQL identifier. */
    private static String runId() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    static String required(String variable) {
        return optional(variable).orElseThrow(() -> new IllegalStateException(variable
                + " is not set: benchmarks/run.sh starts a Redis and a PostgreSQL and sets it"));
    }

    private static Optional<String> optional(String variable) {
        return Optional.ofNullable(System.getenv(variable)).filter(value -> !value.isBlank());
    }
}
