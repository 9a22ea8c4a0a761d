package dev.pigeonhole.archfixture.neighbours.adapter.redis;

/** A Redis adapter, innocent here: the PostgreSQL one reaches for it. */
public final class RedisThings {
}
