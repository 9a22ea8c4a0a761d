package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatAccessContract;
import dev.pigeonhole.tck.StoreFixture;

class InMemoryChatAccessTest extends ChatAccessContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
