package dev.pigeonhole.adapter.redis.glide;

import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisRefusalContract;
import dev.pigeonhole.adapter.redis.RedisSettings;

class GlideClusterRefusalTest extends RedisRefusalContract {

    @Override
    protected RedisDriver newDriver(RedisSettings settings) {
        return new GlideDriver(settings);
    }

    @Override
    protected boolean cluster() {
        return true;
    }
}
