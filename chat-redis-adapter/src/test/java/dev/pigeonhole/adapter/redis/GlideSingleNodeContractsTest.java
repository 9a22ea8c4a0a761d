package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ContractSuite;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.RedisServers;

/** GLIDE on one Redis node, tagged keys. */
class GlideSingleNodeContractsTest extends ContractSuite {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return RedisStoreFixture.open(RedisServers.single(), RedisClientKind.GLIDE, KeyLayout::tagged, limits);
    }
}
