package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ContractSuite;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.RedisServers;

/** The book's own key layout (Redis in Action 6.5.2) on one node, through Jedis. */
class BookLayoutContractsTest extends ContractSuite {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return RedisStoreFixture.open(RedisServers.single(), RedisClientKind.JEDIS, KeyLayout::book, limits);
    }
}
