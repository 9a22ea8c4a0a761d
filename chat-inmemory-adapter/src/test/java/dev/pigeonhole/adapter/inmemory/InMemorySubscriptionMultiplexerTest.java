package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.tck.SubscriptionMultiplexerContract;

/** The in-memory store against the domain's subscription multiplexer, running over in-memory channels. */
class InMemorySubscriptionMultiplexerTest extends SubscriptionMultiplexerContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
