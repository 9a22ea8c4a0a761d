package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ContractSuite;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.RedisServers;

/** Redisson on a three-master Redis Cluster, tagged keys. */
class RedissonClusterContractsTest extends ContractSuite {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return RedisStoreFixture.open(RedisServers.cluster(), RedisClientKind.REDISSON, KeyLayout::tagged, limits);
    }
}
