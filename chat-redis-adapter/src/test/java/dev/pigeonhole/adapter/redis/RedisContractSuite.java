package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.fixture.RedisTarget;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ContractSuite;
import dev.pigeonhole.tck.StoreFixture;

import java.util.function.Function;

/**
 * The whole contract suite, unchanged, on one Redis configuration. Each subclass names a
 * configuration (a client, a single node or a cluster, a key layout) and inherits every contract
 * as a nested class ({@link ContractSuite}), so the five configurations, and PostgreSQL beside
 * them, cannot drift apart in what they check.
 */
abstract class RedisContractSuite extends ContractSuite {

    /** Where the store lives; asking starts it if needed, or skips (fails on CI) if it cannot. */
    abstract RedisTarget target();

    abstract RedisClientKind client();

    abstract Function<String, KeyLayout> layout();

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new RedisStoreFixture(target(), client(), layout(), limits);
    }
}
