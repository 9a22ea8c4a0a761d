package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.fixture.RedisServers;
import dev.pigeonhole.adapter.redis.fixture.RedisTarget;

import java.util.function.Function;

/** Jedis on a three-master Redis Cluster, tagged keys. */
class JedisClusterContractsTest extends RedisContractSuite {

    @Override
    RedisTarget target() {
        return RedisServers.cluster();
    }

    @Override
    RedisClientKind client() {
        return RedisClientKind.JEDIS;
    }

    @Override
    Function<String, KeyLayout> layout() {
        return KeyLayout::tagged;
    }
}
