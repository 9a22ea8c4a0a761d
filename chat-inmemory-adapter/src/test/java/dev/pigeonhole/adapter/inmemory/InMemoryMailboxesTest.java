package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.MailboxesContract;
import dev.pigeonhole.tck.StoreFixture;

/** The in-memory store against the mailbox contract. */
class InMemoryMailboxesTest extends MailboxesContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
