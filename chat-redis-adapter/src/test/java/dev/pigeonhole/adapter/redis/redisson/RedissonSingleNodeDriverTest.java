package dev.pigeonhole.adapter.redis.redisson;

import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisDriverContract;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;

class RedissonSingleNodeDriverTest extends RedisDriverContract {

    @Override
    protected RedisTarget target() {
        return RedisServers.single();
    }

    @Override
    protected RedisDriver newDriver(RedisSettings settings) {
        return new RedissonDriver(settings);
    }
}
