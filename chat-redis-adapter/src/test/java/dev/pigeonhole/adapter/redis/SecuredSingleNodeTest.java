package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.testsupport.redis.SecuredRedis;

/** Every client on a single node that admits only signed-in users. */
class SecuredSingleNodeTest extends SecuredRedisContracts {

    @Override
    protected SecuredRedis start() {
        return SecuredRedis.single(ACL_PREFIX);
    }
}
