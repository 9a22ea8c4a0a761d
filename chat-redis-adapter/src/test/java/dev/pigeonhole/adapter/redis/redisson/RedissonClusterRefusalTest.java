package dev.pigeonhole.adapter.redis.redisson;

import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisRefusalContract;
import dev.pigeonhole.adapter.redis.RedisSettings;

class RedissonClusterRefusalTest extends RedisRefusalContract {

    @Override
    protected RedisDriver newDriver(RedisSettings settings) {
        return new RedissonDriver(settings);
    }

    @Override
    protected boolean cluster() {
        return true;
    }
}
