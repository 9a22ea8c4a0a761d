package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatMembershipContract;
import dev.pigeonhole.tck.StoreFixture;

class InMemoryChatMembershipTest extends ChatMembershipContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
