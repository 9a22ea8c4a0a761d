package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ContractSuite;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.RedisServers;

/** GLIDE on a three-master Redis Cluster, tagged keys. */
class GlideClusterContractsTest extends ContractSuite {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return RedisStoreFixture.open(RedisServers.cluster(), RedisClientKind.GLIDE, KeyLayout::tagged, limits);
    }
}
