package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatLockContract;
import dev.pigeonhole.tck.StoreFixture;

/** The in-memory store against the lock contract. */
class InMemoryChatLockTest extends ChatLockContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
