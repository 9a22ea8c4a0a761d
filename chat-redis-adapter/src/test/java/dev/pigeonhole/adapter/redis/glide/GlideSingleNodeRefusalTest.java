package dev.pigeonhole.adapter.redis.glide;

import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisRefusalContract;
import dev.pigeonhole.adapter.redis.RedisSettings;

class GlideSingleNodeRefusalTest extends RedisRefusalContract {

    @Override
    protected RedisDriver newDriver(RedisSettings settings) {
        return new GlideDriver(settings);
    }

    /** GLIDE's single-node client insists on a primary: "No primary node found". */
    @Override
    protected boolean servesALoneReplica() {
        return false;
    }

    @Override
    protected boolean cluster() {
        return false;
    }
}
