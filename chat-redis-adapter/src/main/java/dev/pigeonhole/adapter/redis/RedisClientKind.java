package dev.pigeonhole.adapter.redis;

/**
 * Which Java client carries the adapter's function calls to Redis. Everything above the driver seam is
 * the same for both; whoever builds a driver (the composition root, or a test that opens its own)
 * picks {@code JedisDriver} or {@code LettuceDriver} by it.
 */
public enum RedisClientKind {
    /** Jedis: a connection borrowed from a pool for each call. */
    JEDIS,
    /** Lettuce: every call over one shared connection per node, pipelined. */
    LETTUCE
}
