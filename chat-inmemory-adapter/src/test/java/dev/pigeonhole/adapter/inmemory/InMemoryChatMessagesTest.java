package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatMessagesContract;
import dev.pigeonhole.tck.StoreFixture;

class InMemoryChatMessagesTest extends ChatMessagesContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
