package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.testsupport.redis.SecuredRedis;
import org.junit.jupiter.api.AfterAll;

/** Every client on a single node that admits only signed-in users. */
class SecuredSingleNodeTest extends SecuredRedisContracts {

    private static SecuredRedis redis;

    @Override
    protected SecuredRedis secured() {
        return started();
    }

    private static synchronized SecuredRedis started() {
        if (redis == null) {
            redis = SecuredRedis.single(ACL_PREFIX);
        }
        return redis;
    }

    @AfterAll
    static synchronized void stop() {
        if (redis != null) {
            try {
                assertNothingDenied(redis);
            } finally {
                redis.close();
                redis = null;
            }
        }
    }
}
