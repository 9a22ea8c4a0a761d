package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatBatchAcknowledgeContract;
import dev.pigeonhole.tck.StoreFixture;

class InMemoryChatBatchAcknowledgeTest extends ChatBatchAcknowledgeContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
