package dev.pigeonhole.benchmarks.baseline;

import java.net.URI;
import java.util.UUID;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/** The raw client the baselines share, pointed at the Redis the adapter benchmarks use. */
final class RawRedis {

    private RawRedis() {
    }

    /**
     * A pooled client with room for every benchmark thread to hold a connection of its own: the
     * default pool of 8 would make 8 threads wait on each other for reasons the book never had.
     */
    static RedisClient connect() {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(64);
        pool.setMaxIdle(64);
        return RedisClient.builder().fromURI(url()).poolConfig(pool).build();
    }

    /**
     * One plain connection, as the book's {@code conn} is. Not a connection lent by a
     * RedisClient's pool: wrapped in a Jedis, that one decodes RESP2 replies while the pool
     * negotiated RESP3, and ZRANGE WITHSCORES comes back as something else.
     */
    static Jedis connection() {
        return new Jedis(url());
    }

    static URI url() {
        String url = System.getenv("REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("REDIS_URL is not set: benchmarks/run.sh starts a Redis and sets it");
        }
        return URI.create(url);
    }

    /** A key prefix of its own per trial, so runs never see each other's data. */
    static String prefix() {
        return "base-" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }
}
