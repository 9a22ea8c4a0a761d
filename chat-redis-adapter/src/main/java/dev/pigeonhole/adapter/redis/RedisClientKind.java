package dev.pigeonhole.adapter.redis;

/**
 * Which Java client carries the adapter's function calls to Redis. Everything above the driver
 * seam is the same for all of them; whoever builds a driver (the composition root, or a test that
 * opens its own) picks {@code JedisDriver}, {@code LettuceDriver}, {@code RedissonDriver} or
 * {@code GlideDriver} by it.
 */
public enum RedisClientKind {
    /** Jedis: a connection borrowed from a pool for each call. */
    JEDIS,
    /** Lettuce: every call over one shared connection per node, pipelined, on Netty. */
    LETTUCE,
    /** Redisson: its own pool of Netty connections per node, calls asynchronous underneath. */
    REDISSON,
    /** Valkey GLIDE: a Rust core reached through JNI, one multiplexed connection per node. */
    GLIDE
}
