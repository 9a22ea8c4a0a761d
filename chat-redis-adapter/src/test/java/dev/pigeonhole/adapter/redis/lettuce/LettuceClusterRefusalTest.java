package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisRefusalContract;
import dev.pigeonhole.adapter.redis.RedisSettings;

class LettuceClusterRefusalTest extends RedisRefusalContract {

    @Override
    protected RedisDriver newDriver(RedisSettings settings) {
        return new LettuceDriver(settings);
    }

    @Override
    protected boolean cluster() {
        return true;
    }
}
