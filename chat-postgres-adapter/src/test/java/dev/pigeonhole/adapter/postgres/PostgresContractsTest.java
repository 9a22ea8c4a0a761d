package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ContractSuite;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.postgres.PostgresServers;

/** The contract suite, unchanged, on PostgreSQL: every contract of every port, each in a schema of its own. */
class PostgresContractsTest extends ContractSuite {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return PostgresStoreFixture.open(PostgresServers.local(), limits);
    }
}
