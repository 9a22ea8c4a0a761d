package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.testsupport.redis.SecuredRedis;

/**
 * Every client on a cluster of three masters that speak TLS only, to clients and to each other,
 * and admit only signed-in users: the contracts pass over TLS on every node the clients discover,
 * each checked against the CA that signed its certificate.
 */
class SecuredTlsClusterTest extends SecuredRedisContracts {

    @Override
    protected SecuredRedis start() {
        return SecuredRedis.clusterOverTls(ACL_PREFIX);
    }

    @Override
    protected RedisSettings.Tls tls() {
        return new RedisSettings.Tls(true, secured().certificates().authority(), null, null);
    }
}
