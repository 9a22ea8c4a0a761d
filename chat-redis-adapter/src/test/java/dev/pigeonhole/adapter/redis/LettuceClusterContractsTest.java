package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.fixture.RedisServers;
import dev.pigeonhole.adapter.redis.fixture.RedisTarget;

import java.util.function.Function;

/** Lettuce on a three-master Redis Cluster, tagged keys. */
class LettuceClusterContractsTest extends RedisContractSuite {

    @Override
    RedisTarget target() {
        return RedisServers.cluster();
    }

    @Override
    RedisClientKind client() {
        return RedisClientKind.LETTUCE;
    }

    @Override
    Function<String, KeyLayout> layout() {
        return KeyLayout::tagged;
    }
}
