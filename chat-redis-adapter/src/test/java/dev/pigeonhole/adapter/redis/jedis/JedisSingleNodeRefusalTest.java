package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisRefusalContract;
import dev.pigeonhole.adapter.redis.RedisSettings;

class JedisSingleNodeRefusalTest extends RedisRefusalContract {

    @Override
    protected RedisDriver newDriver(RedisSettings settings) {
        return new JedisDriver(settings);
    }

    @Override
    protected boolean cluster() {
        return false;
    }
}
