package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.glide.GlideDriver;
import dev.pigeonhole.adapter.redis.jedis.JedisDriver;
import dev.pigeonhole.adapter.redis.lettuce.LettuceDriver;
import dev.pigeonhole.adapter.redis.redisson.RedissonDriver;

/** The driver of a client kind, for the tests that open their own, as the composition root opens it. */
final class Drivers {

    private Drivers() {
    }

    static RedisDriver open(RedisClientKind client, RedisSettings settings) {
        return switch (client) {
            case JEDIS -> new JedisDriver(settings);
            case LETTUCE -> new LettuceDriver(settings);
            case REDISSON -> new RedissonDriver(settings);
            case GLIDE -> new GlideDriver(settings);
        };
    }
}
