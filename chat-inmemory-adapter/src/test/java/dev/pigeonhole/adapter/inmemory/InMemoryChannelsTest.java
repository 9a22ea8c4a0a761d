package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChannelsContract;
import dev.pigeonhole.tck.StoreFixture;

/** The in-memory store against the pub/sub contract. */
class InMemoryChannelsTest extends ChannelsContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
