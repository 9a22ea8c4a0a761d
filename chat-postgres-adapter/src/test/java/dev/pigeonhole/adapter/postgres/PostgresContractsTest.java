package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.adapter.postgres.fixture.PostgresServers;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.tck.ChannelsContract;
import dev.pigeonhole.tck.ChatLockContract;
import dev.pigeonhole.tck.MailboxesContract;
import dev.pigeonhole.tck.PresenceRegistryContract;
import dev.pigeonhole.tck.QuotasContract;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.tck.SubscriptionMultiplexerContract;
import org.junit.jupiter.api.Nested;

/**
 * The contract suite, unchanged, on PostgreSQL: every contract of the ports this adapter has so
 * far. The chat contracts join when {@code PostgresChats} does.
 */
class PostgresContractsTest {

    private static StoreFixture store(Limits limits) {
        return new PostgresStoreFixture(PostgresServers.local(), limits);
    }

    @Nested
    class WriteQuotas extends QuotasContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }

    @Nested
    class Mailboxes extends MailboxesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }

    @Nested
    class Presence extends PresenceRegistryContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }

    @Nested
    class Lock extends ChatLockContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }

    @Nested
    class LiveChannels extends ChannelsContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }

    @Nested
    class Multiplexer extends SubscriptionMultiplexerContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }
}
