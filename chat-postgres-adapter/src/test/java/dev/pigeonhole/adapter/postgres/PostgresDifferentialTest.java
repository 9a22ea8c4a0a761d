package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.adapter.postgres.fixture.PostgresServers;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatsDifferentialContract;
import dev.pigeonhole.tck.StoreFixture;

/**
 * Random operations against the chat aggregate and PostgreSQL side by side. jqwik runs properties
 * in top-level classes, not in JUnit's nested ones, hence a class of its own.
 */
class PostgresDifferentialTest extends ChatsDifferentialContract {

    @Override
    protected StoreFixture newStore(Limits limits) {
        return new PostgresStoreFixture(PostgresServers.local(), limits);
    }
}
