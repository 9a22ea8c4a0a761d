package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.PresenceRegistryContract;
import dev.pigeonhole.tck.StoreFixture;

/** The in-memory store against the presence contract. */
class InMemoryPresenceRegistryTest extends PresenceRegistryContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
