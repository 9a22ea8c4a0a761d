package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatSendRateContract;
import dev.pigeonhole.tck.StoreFixture;

/** The in-memory store against the send rate contract. */
class InMemoryChatSendRateTest extends ChatSendRateContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
