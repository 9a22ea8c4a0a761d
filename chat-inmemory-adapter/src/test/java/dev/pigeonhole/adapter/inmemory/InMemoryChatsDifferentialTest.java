package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatsDifferentialContract;
import dev.pigeonhole.tck.StoreFixture;

/** The in-memory store against the chat aggregate, on random operations and races. */
class InMemoryChatsDifferentialTest extends ChatsDifferentialContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
