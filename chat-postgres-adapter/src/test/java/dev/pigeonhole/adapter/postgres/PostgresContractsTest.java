package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.adapter.postgres.fixture.PostgresServers;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.tck.ChannelsContract;
import dev.pigeonhole.tck.ChatAccessContract;
import dev.pigeonhole.tck.ChatIdempotencyContract;
import dev.pigeonhole.tck.ChatMembershipContract;
import dev.pigeonhole.tck.ChatMessagesContract;
import dev.pigeonhole.tck.ChatRacesContract;
import dev.pigeonhole.tck.ChatSendRateContract;
import dev.pigeonhole.tck.ChatLockContract;
import dev.pigeonhole.tck.MailboxesContract;
import dev.pigeonhole.tck.PresenceRegistryContract;
import dev.pigeonhole.tck.QuotasContract;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.tck.SubscriptionMultiplexerContract;
import org.junit.jupiter.api.Nested;

/** The contract suite, unchanged, on PostgreSQL: every contract of every port. */
class PostgresContractsTest {

    private static StoreFixture store(Limits limits) {
        return new PostgresStoreFixture(PostgresServers.local(), limits);
    }

    @Nested
    class Messages extends ChatMessagesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }

    @Nested
    class Idempotency extends ChatIdempotencyContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }

    @Nested
    class SendRate extends ChatSendRateContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }

    @Nested
    class Access extends ChatAccessContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }

    @Nested
    class Membership extends ChatMembershipContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
    }

    @Nested
    class Races extends ChatRacesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(limits);
        }
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
