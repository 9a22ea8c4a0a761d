package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.limits.Limits;
import org.junit.jupiter.api.Nested;

/**
 * Every contract of the suite at once, for a store that runs them all the same way: a subclass
 * says how to make a fresh store ({@link #newStore}) and inherits each contract as a nested
 * class, so two stores, or two configurations of one, cannot drift apart in what they check. The
 * differential contract is a jqwik property and needs a top-level class of its own.
 */
public abstract class ContractSuite {

    /** A fresh store, isolated from every other store alive, with the given limits. */
    protected abstract StoreFixture newStore(Limits limits);

    @Nested
    public class Messages extends ChatMessagesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class BatchAcknowledge extends ChatBatchAcknowledgeContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class Idempotency extends ChatIdempotencyContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class SendRate extends ChatSendRateContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class Access extends ChatAccessContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class Membership extends ChatMembershipContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class Races extends ChatRacesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class WriteQuotas extends QuotasContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class Mailboxes extends MailboxesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class Presence extends PresenceRegistryContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class Lock extends ChatLockContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class LiveChannels extends ChannelsContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class Multiplexer extends SubscriptionMultiplexerContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }
}
