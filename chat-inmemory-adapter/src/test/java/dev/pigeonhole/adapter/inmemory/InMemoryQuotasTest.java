package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.QuotasContract;
import dev.pigeonhole.tck.StoreFixture;

/** The in-memory store against the quota contract. */
class InMemoryQuotasTest extends QuotasContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
