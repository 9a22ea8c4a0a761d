package dev.pigeonhole.archfixture.neighbours.adapter.postgres;

import dev.pigeonhole.archfixture.neighbours.adapter.redis.RedisThings;

/** Broken on purpose: the PostgreSQL adapter leans on the Redis one. */
public record PostgresLeaningThings(RedisThings cache) {
}
