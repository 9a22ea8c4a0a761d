package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.adapter.postgres.fixture.PostgresServers;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.MailboxesDifferentialContract;
import dev.pigeonhole.tck.StoreFixture;

/** Random mailbox operations against the mailbox aggregate and PostgreSQL side by side. */
class PostgresMailboxesDifferentialTest extends MailboxesDifferentialContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new PostgresStoreFixture(PostgresServers.local(), limits);
    }
}
