package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatRacesContract;
import dev.pigeonhole.tck.StoreFixture;

/** The in-memory store against the races of Redis in Action's group chat, and the load test. */
class InMemoryChatRacesTest extends ChatRacesContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
