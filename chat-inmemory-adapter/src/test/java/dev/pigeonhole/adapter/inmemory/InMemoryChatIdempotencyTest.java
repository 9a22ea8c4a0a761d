package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatIdempotencyContract;
import dev.pigeonhole.tck.StoreFixture;

class InMemoryChatIdempotencyTest extends ChatIdempotencyContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
