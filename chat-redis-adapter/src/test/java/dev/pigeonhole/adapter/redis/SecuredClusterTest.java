package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.testsupport.redis.SecuredRedis;

/** Every client on a cluster of three masters that admits only signed-in users. */
class SecuredClusterTest extends SecuredRedisContracts {

    @Override
    protected SecuredRedis start() {
        return SecuredRedis.cluster(ACL_PREFIX);
    }
}
