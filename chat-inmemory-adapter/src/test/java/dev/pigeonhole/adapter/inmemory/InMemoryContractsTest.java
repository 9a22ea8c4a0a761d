package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ContractSuite;
import dev.pigeonhole.tck.StoreFixture;

/** The contract suite, unchanged, in memory: every contract of every port, each on a fresh store. */
class InMemoryContractsTest extends ContractSuite {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return InMemoryStoreFixture.open(limits);
    }
}
