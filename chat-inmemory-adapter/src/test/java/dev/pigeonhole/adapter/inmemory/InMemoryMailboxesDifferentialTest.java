package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.MailboxesDifferentialContract;
import dev.pigeonhole.tck.StoreFixture;

/** The in-memory store against the mailbox aggregate, on random operations and races. */
class InMemoryMailboxesDifferentialTest extends MailboxesDifferentialContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new InMemoryStoreFixture(limits);
    }
}
