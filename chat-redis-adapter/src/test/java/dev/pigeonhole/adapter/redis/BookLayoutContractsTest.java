package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.fixture.RedisServers;
import dev.pigeonhole.adapter.redis.fixture.RedisTarget;

import java.util.function.Function;

/** The book's own key layout (Redis in Action 6.5.2) on one node, through Jedis. */
class BookLayoutContractsTest extends RedisContractSuite {

    @Override
    RedisTarget target() {
        return RedisServers.single();
    }

    @Override
    RedisClientKind client() {
        return RedisClientKind.JEDIS;
    }

    @Override
    Function<String, KeyLayout> layout() {
        return KeyLayout::book;
    }
}
