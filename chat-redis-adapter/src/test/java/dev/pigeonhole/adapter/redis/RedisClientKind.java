package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.jedis.JedisDriver;
import dev.pigeonhole.adapter.redis.lettuce.LettuceDriver;

import java.util.function.Function;

/** The two clients every Redis test runs on. */
public enum RedisClientKind {
    JEDIS(JedisDriver::new),
    LETTUCE(LettuceDriver::new);

    private final Function<RedisSettings, RedisDriver> open;

    RedisClientKind(Function<RedisSettings, RedisDriver> open) {
        this.open = open;
    }

    public RedisDriver open(RedisSettings settings) {
        return open.apply(settings);
    }
}
