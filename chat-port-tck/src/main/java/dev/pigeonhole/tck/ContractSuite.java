package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.limits.Limits;
import net.jqwik.api.Group;
import org.junit.jupiter.api.Nested;

/**
 * Every contract of the suite at once, the one way a store joins it: each store configuration is
 * one subclass that says how to make a fresh store ({@link #newStore}) and inherits every contract
 * as an inner class, so no two stores, nor two configurations of one, can drift apart in what
 * they check.
 *
 * <p>Two test engines run the inner classes: JUnit Jupiter the {@code @Nested} contracts, jqwik
 * the {@code @Group} properties (the differential contracts), since neither runs the other's kind.
 * A new contract is one more inner class here, and every store runs it.
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
    public class History extends ChatHistoryContract {
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
    public class Invitations extends ChatInvitationsContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Nested
    public class ConsentsKept extends ConsentsContract {
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

    @Group
    public class ChatsDifferential extends ChatsDifferentialContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }

    @Group
    public class MailboxesDifferential extends MailboxesDifferentialContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return ContractSuite.this.newStore(limits);
        }
    }
}
