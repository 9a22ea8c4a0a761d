package dev.pigeonhole.domain.service.live;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryConsents;
import dev.pigeonhole.adapter.inmemory.InMemoryQuotas;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.chat.ChatService;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A live feed whose store goes away: the in-memory store and channels behind a switch that makes
 * every call fail as an unreachable store does. A feed never ends for it; it says resync, and
 * follows what it should once the store answers again, even on a connection where nothing else
 * happens.
 */
@Timeout(60)
class LiveFeedStoreAwayTest {

    /** Feeds are under test here, not the limiter: every write is admitted. */
    private static final Limits UNLIMITED_RATES = Limits.DEFAULTS.withRates(RateLimits.NONE);

    private static final Duration WAIT = Duration.ofSeconds(10);
    /** A read that is expected to find nothing: long enough to be a real wait, no timing goal. */
    private static final Duration QUIET = Duration.ofMillis(200);

    private final TestClock clock = new TestClock();
    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryChats chats = new InMemoryChats(Limits.DEFAULTS, channels);
    /** Adds go through as the book's do, unless a test says otherwise. */
    private final Acquaintances anyoneAdds = new Acquaintances(new InMemoryConsents(), chats, channels,
            ConsentLimits.DEFAULTS.withDefaultPolicy(AddPolicy.ANYONE));
    private final ChatService chatService =
            new ChatService(chats, channels, new InMemoryQuotas(clock), anyoneAdds, UNLIMITED_RATES, clock);
    private volatile boolean away;
    private final SubscriptionMultiplexer multiplexer = new SubscriptionMultiplexer(reachable(channels), 16);
    private final LiveService live = new LiveService(multiplexer, reachable(chats, Chats.class), clock);

    private final UserId alice = user();
    private final UserId bob = user();

    @AfterEach
    void close() {
        multiplexer.close();
    }

    @Test
    void a_subscription_refused_upstream_while_the_store_is_away_is_not_kept() {
        away = true;

        assertThatExceptionOfType(StoreUnavailableException.class)
                .isThrownBy(() -> multiplexer.subscribe(List.of(Channel.ofChat(ChatId.of("lunch")))));

        assertThat(multiplexer.localSubscriptions()).isZero();
        assertThat(multiplexer.upstreamSubscriptions()).isZero();
    }

    @Test
    void a_feed_started_while_the_store_is_away_says_resync_and_follows_once_it_is_back() throws Exception {
        ChatId lunch = create(alice, Set.of(bob), "hi");
        away = true;

        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(feed.next(WAIT)).contains(new LiveSignal.Resync());
            assertThat(feed.next(QUIET)).as("still away: tried, and nothing to say").isEmpty();
            assertThat(feed.isOpen()).isTrue();

            away = false;
            assertThat(polled(feed)).as("back: followed on a quiet connection, then told to pull")
                    .contains(new LiveSignal.Resync());

            chatService.send(new SendMessage.Command(lunch, alice, "welcome back"));
            assertThat(feed.next(WAIT)).hasValueSatisfying(signal -> assertThat(signal)
                    .isInstanceOf(LiveSignal.Event.class)
                    .extracting(event -> ((LiveSignal.Event) event).event())
                    .isInstanceOf(LiveEvent.MessagePosted.class));
            channels.publish(Channel.PRESENCE, new LiveEvent.PresenceChanged(alice, true, clock.instant()));
            assertThat(feed.next(WAIT)).as("alice is known as a co-member again")
                    .contains(new LiveSignal.Presence(Set.of(alice), Set.of()));
            ChatId later = create(alice, Set.of(), "later");
            chatService.join(new JoinChat.Command(later, alice, bob));
            assertThat(polled(feed)).as("bob's own news is subscribed again too")
                    .contains(new LiveSignal.Event(Channel.ofUser(bob), new LiveEvent.MembershipChanged(bob, later, true)));
        }
    }

    @Test
    void a_feed_subscribed_while_up_keeps_its_chats_through_an_outage_and_hears_the_next_message() throws Exception {
        ChatId lunch = create(alice, Set.of(bob), "hi");
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(feed.next(WAIT)).isPresent();
            away = true;
            assertThat(feed.next(QUIET)).isEmpty();
            away = false;

            chatService.send(new SendMessage.Command(lunch, alice, "still here"));
            assertThat(feed.next(WAIT)).hasValueSatisfying(signal -> assertThat(signal)
                    .isInstanceOf(LiveSignal.Event.class));
        }
    }

    @Test
    void news_of_a_join_the_store_cannot_confirm_is_not_told_and_a_resync_comes_instead() throws Exception {
        UserId carol = user();
        ChatId lunch = create(alice, Set.of(bob), "hi");
        try (LiveFeed bobs = live.subscribe(bob); LiveFeed carols = live.subscribe(carol)) {
            assertThat(polled(bobs)).as("lunch followed here already, so carol's feed can follow it without the store")
                    .isPresent();
            assertThat(carols.next(QUIET)).isEmpty();

            chatService.join(new JoinChat.Command(lunch, alice, carol));
            away = true;

            assertThat(polled(carols)).as("the store could not say she is in it: she is told to pull")
                    .contains(new LiveSignal.Resync());
        }
    }

    @Test
    void a_resync_the_store_could_not_settle_is_settled_once_it_is_back_and_is_not_told_twice() throws Exception {
        ChatId lunch = create(alice, Set.of(bob), "hi");
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(polled(feed)).isPresent();
            away = true;
            channels.disconnectAll();
            assertThat(polled(feed)).contains(new LiveSignal.Resync());
            assertThat(feed.next(QUIET)).as("still away").isEmpty();

            away = false;
            assertThat(feed.next(QUIET)).as("settled, and nothing new to follow: nothing more to say").isEmpty();
            chatService.send(new SendMessage.Command(lunch, alice, "after"));
            assertThat(polled(feed)).hasValueSatisfying(signal -> assertThat(signal).isInstanceOf(LiveSignal.Event.class));
            assertThat(feed.next(QUIET)).isEmpty();
        }
    }

    /**
     * The next signal, read the way a transport reads a feed: a short wait at a time, over and
     * over, which is what gives a quiet feed its chance to try the store again.
     */
    private static Optional<LiveSignal> polled(LiveFeed feed) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<LiveSignal> signal = feed.next(QUIET);
            if (signal.isPresent()) {
                return signal;
            }
        }
        return Optional.empty();
    }

    private ChatId create(UserId creator, Set<UserId> others, String text) {
        return chatService.create(new CreateChat.Command(creator, others, Optional.empty(), text)).chat();
    }

    private static UserId user() {
        return UserId.of("u-" + UUID.randomUUID());
    }

    /** The channels, whose connections subscribe only while the store is reachable. */
    private Channels reachable(Channels real) {
        return new Channels() {
            @Override
            public void publish(Channel channel, LiveEvent event) {
                real.publish(channel, event);
            }

            @Override
            public Connection connect(Receiver receiver) {
                return reachable(real.connect(receiver), Connection.class);
            }
        };
    }

    /** {@code real}, failing every call as an unreachable store does while {@link #away}. */
    private <T> T reachable(T real, Class<T> port) {
        InvocationHandler handler = (proxy, method, arguments) -> {
            if (away && !method.getName().equals("close")) {
                throw new StoreUnavailableException("the store is away (" + method.getName() + ")", null);
            }
            try {
                return method.invoke(real, arguments);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return port.cast(Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, handler));
    }
}
