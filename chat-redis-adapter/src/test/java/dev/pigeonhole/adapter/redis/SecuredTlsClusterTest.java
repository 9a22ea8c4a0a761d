package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.testsupport.redis.SecuredRedis;
import org.junit.jupiter.api.AfterAll;

/**
 * Every client on a cluster of three masters that speak TLS only, to clients and to each other,
 * and admit only signed-in users: the contracts pass over TLS on every node the clients discover,
 * each checked against the CA that signed its certificate.
 */
class SecuredTlsClusterTest extends SecuredRedisContracts {

    private static SecuredRedis redis;

    @Override
    protected SecuredRedis secured() {
        return started();
    }

    @Override
    protected RedisSettings.Tls tls() {
        return new RedisSettings.Tls(true, secured().certificates().authority(), null, null);
    }

    private static synchronized SecuredRedis started() {
        if (redis == null) {
            redis = SecuredRedis.clusterOverTls(ACL_PREFIX);
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
