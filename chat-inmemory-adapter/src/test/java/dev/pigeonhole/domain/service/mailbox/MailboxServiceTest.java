package dev.pigeonhole.domain.service.mailbox;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryConsents;
import dev.pigeonhole.adapter.inmemory.InMemoryMailboxes;
import dev.pigeonhole.adapter.inmemory.InMemoryQuotas;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import dev.pigeonhole.domain.port.in.mailbox.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.ReadDirectMessages;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.live.LiveService;
import dev.pigeonhole.domain.service.live.SubscriptionMultiplexer;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Single-recipient messaging on the in-memory store: the clock's time, the configured body limit,
 * read then acknowledge, and a delivery reaching its owner's live feed and no one else's.
 */
class MailboxServiceTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Limits LIMITS = Limits.DEFAULTS.withMaxBodyLength(5);

    private final UserId alice = user();
    private final UserId bob = user();
    private final TestClock clock = new TestClock();
    private final InMemoryChannels channels = new InMemoryChannels();
    /** No one here shares a chat: every sender is a stranger, whose share of a default mailbox is ample. */
    private final Acquaintances anyoneAdds = new Acquaintances(new InMemoryConsents(),
            new InMemoryChats(LIMITS, channels), channels, ConsentLimits.DEFAULTS.withDefaultPolicy(AddPolicy.ANYONE));
    private final MailboxService service =
            new MailboxService(new InMemoryMailboxes(LIMITS, channels), new InMemoryQuotas(clock), anyoneAdds, LIMITS, clock);
    private final SubscriptionMultiplexer multiplexer = new SubscriptionMultiplexer(channels, 1_024);
    private final LiveService live = new LiveService(multiplexer, new InMemoryChats(LIMITS, channels), clock);

    @AfterEach
    void close() {
        multiplexer.close();
    }

    @Test
    void a_delivered_message_stays_until_its_owner_acknowledges_it() {
        Delivered delivered = service.deliver(new DeliverDirectMessage.Command(alice, bob, "psst"));

        DirectMessage stored = new DirectMessage(1, TestClock.START, alice, "psst");
        assertThat(delivered).isEqualTo(new Delivered(bob, stored, 1));
        assertThat(read(bob)).containsExactly(stored);
        assertThat(read(bob)).as("reading removes nothing").containsExactly(stored);

        service.acknowledge(new AcknowledgeDirectMessages.Command(bob, 1));

        assertThat(read(bob)).isEmpty();
    }

    @Test
    void a_delivery_is_stamped_with_the_clock_read_to_the_millisecond() {
        InstantSource finer = InstantSource.fixed(TestClock.START.plusNanos(1_234_567));
        MailboxService stamping = new MailboxService(new InMemoryMailboxes(LIMITS, channels), new InMemoryQuotas(clock), anyoneAdds,
                LIMITS, finer);

        Delivered delivered = stamping.deliver(new DeliverDirectMessage.Command(alice, bob, "psst"));

        assertThat(delivered.message().sentAt()).isEqualTo(TestClock.START.plusMillis(1));
        assertThat(stamping.read(new ReadDirectMessages.Command(bob, 10))).containsExactly(delivered.message());
    }

    @Test
    void a_body_over_the_configured_limit_is_refused_and_nothing_is_delivered() {
        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> service.deliver(new DeliverDirectMessage.Command(alice, bob, "too long")));

        assertThat(read(bob)).isEmpty();
        assertThat(service.deliver(new DeliverDirectMessage.Command(alice, bob, "next")).message().id())
                .as("the refused message took no id").isEqualTo(1);
    }

    @Test
    void deliveries_are_held_to_the_senders_bucket_and_a_refused_one_is_not_stored() {
        MailboxService strict = new MailboxService(new InMemoryMailboxes(LIMITS, channels), new InMemoryQuotas(clock), anyoneAdds,
                LIMITS.withRates(new RateLimits(RateLimit.NONE, RateLimit.NONE, RateLimit.NONE,
                        new RateLimit(2, Duration.ofMinutes(1)))), clock);
        strict.deliver(new DeliverDirectMessage.Command(alice, bob, "one"));
        strict.deliver(new DeliverDirectMessage.Command(alice, bob, "two"));

        assertThatExceptionOfType(RateLimitedException.class)
                .isThrownBy(() -> strict.deliver(new DeliverDirectMessage.Command(alice, bob, "three")));
        assertThat(strict.read(new ReadDirectMessages.Command(bob, 10))).hasSize(2);
        clock.advance(Duration.ofSeconds(30));
        assertThat(strict.deliver(new DeliverDirectMessage.Command(alice, bob, "three")).message().id()).isEqualTo(3);
    }

    @Test
    void a_delivery_reaches_its_owners_live_feed_and_no_one_elses() throws Exception {
        UserId carol = user();
        try (LiveFeed feed = live.subscribe(bob)) {
            service.deliver(new DeliverDirectMessage.Command(alice, carol, "carol"));
            Delivered forBob = service.deliver(new DeliverDirectMessage.Command(alice, bob, "bob"));

            // A feed hands out in order: had carol's delivery reached bob, it would come first.
            assertThat(nextEvent(feed)).isEqualTo(new LiveEvent.DirectMessageDelivered(bob, forBob.message()));
        }
    }

    @Test
    void news_of_someone_else_s_delivery_is_not_handed_out_even_on_the_user_s_own_channel() throws Exception {
        UserId carol = user();
        Delivered forCarol = service.deliver(new DeliverDirectMessage.Command(alice, carol, "carol"));
        try (LiveFeed feed = live.subscribe(bob)) {
            channels.publish(Channel.ofUser(bob), new LiveEvent.DirectMessageDelivered(carol, forCarol.message()));
            Delivered forBob = service.deliver(new DeliverDirectMessage.Command(alice, bob, "bob"));

            assertThat(nextEvent(feed)).isEqualTo(new LiveEvent.DirectMessageDelivered(bob, forBob.message()));
        }
    }

    private List<DirectMessage> read(UserId owner) {
        return service.read(new ReadDirectMessages.Command(owner, 10));
    }

    /** The next event the feed hands out, past any presence diff. */
    private static LiveEvent nextEvent(LiveFeed feed) throws InterruptedException {
        while (true) {
            LiveSignal signal = feed.next(WAIT).orElseThrow(() -> new AssertionError("no signal within " + WAIT));
            if (signal instanceof LiveSignal.Event event) {
                return event.event();
            }
        }
    }

    private static UserId user() {
        return UserId.of("u-" + UUID.randomUUID().toString().substring(0, 8));
    }
}
