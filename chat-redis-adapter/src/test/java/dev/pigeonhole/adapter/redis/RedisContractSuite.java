package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.fixture.RedisTarget;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.tck.ChannelsContract;
import dev.pigeonhole.tck.ChatLockContract;
import dev.pigeonhole.tck.ChatIdempotencyContract;
import dev.pigeonhole.tck.ChatAccessContract;
import dev.pigeonhole.tck.ChatSendRateContract;
import dev.pigeonhole.tck.QuotasContract;
import dev.pigeonhole.tck.ChatMembershipContract;
import dev.pigeonhole.tck.ChatMessagesContract;
import dev.pigeonhole.tck.ChatRacesContract;
import dev.pigeonhole.tck.MailboxesContract;
import dev.pigeonhole.tck.PresenceRegistryContract;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.tck.SubscriptionMultiplexerContract;
import org.junit.jupiter.api.Nested;

import java.util.function.Function;

/**
 * The whole contract suite, unchanged, on one Redis configuration. Each subclass names a
 * configuration (a client, a single node or a cluster, a key layout) and inherits every contract
 * as a nested class, so the five configurations cannot drift apart in what they check.
 */
abstract class RedisContractSuite {

    /** Where the store lives; asking starts it if needed, or skips (fails on CI) if it cannot. */
    abstract RedisTarget target();

    abstract RedisClientKind client();

    abstract Function<String, KeyLayout> layout();

    private StoreFixture store(Limits limits) {
        return new RedisStoreFixture(target(), client(), layout(), limits);
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
    class WriteQuotas extends QuotasContract {
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
