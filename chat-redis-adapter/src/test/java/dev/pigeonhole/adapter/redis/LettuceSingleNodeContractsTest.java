package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.fixture.RedisServers;
import dev.pigeonhole.adapter.redis.fixture.RedisTarget;

import java.util.function.Function;

/** Lettuce on one Redis node, tagged keys. */
class LettuceSingleNodeContractsTest extends RedisContractSuite {

    @Override
    RedisTarget target() {
        return RedisServers.single();
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
