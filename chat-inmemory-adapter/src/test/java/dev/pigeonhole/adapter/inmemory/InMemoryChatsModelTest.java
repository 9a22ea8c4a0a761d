package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.tck.ChatsModelContract;
import dev.pigeonhole.tck.StoreFixture;

/** The in-memory store against the store against the contract's reference model, on random operations. */
class InMemoryChatsModelTest extends ChatsModelContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
