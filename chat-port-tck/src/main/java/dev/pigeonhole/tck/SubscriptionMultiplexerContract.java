package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.ChannelPattern;
import dev.pigeonhole.domain.model.live.LiveEvent.MessagePosted;
import dev.pigeonhole.domain.model.live.LiveEvent.PresenceChanged;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal.CloseReason;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.service.live.LiveService;
import dev.pigeonhole.domain.service.live.LocalSubscription;
import dev.pigeonhole.domain.service.live.SubscriptionMultiplexer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The domain's {@link SubscriptionMultiplexer} running over a store's real {@link Channels}
 * (docs/DESIGN.md §1 and §3): one upstream subscription per topic however many local subscribers
 * share it, reference counted, fanned out through bounded queues, resynced after a reconnect.
 *
 * <p>It lives in the contract suite because its promises hold only if the store's channels keep
 * theirs: a subscribe that returns before the store confirms it, say, loses the first event here.
 * The store's channels are wrapped in {@link ObservedChannels}, which passes everything through
 * and notes what the multiplexer asks of the upstream connection, so that "one upstream
 * subscription" is checked where it matters rather than only in the multiplexer's own count.
 */
@Timeout(60)
public abstract class SubscriptionMultiplexerContract {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final OpenStores stores = new OpenStores();
    private final List<SubscriptionMultiplexer> multiplexers = new ArrayList<>();
    private StoreFixture store;
    private Channels channels;
    private ObservedChannels upstream;
    private SubscriptionMultiplexer multiplexer;

    /** A fresh store, isolated from every other one alive at the same time. */
    protected abstract StoreFixture newStore(Limits limits);

    @BeforeEach
    void openStoreAndMultiplexer() {
        store = newStore(Limits.DEFAULTS);
        stores.track(store);
        channels = store.channels();
        upstream = new ObservedChannels(channels);
        multiplexer = track(new SubscriptionMultiplexer(upstream, SubscriptionMultiplexer.DEFAULT_QUEUE_CAPACITY));
    }

    @AfterEach
    void closeMultiplexersAndStores() {
        multiplexers.forEach(SubscriptionMultiplexer::close);
        stores.closeAll();
    }

    @Test
    void many_local_subscribers_of_one_channel_share_one_upstream_subscription_and_all_receive() throws Exception {
        Channel channel = randomChannel();
        List<LocalSubscription> subscribers = IntStream.range(0, 50)
                .mapToObj(i -> multiplexer.subscribe(List.of(channel)))
                .toList();

        assertThat(multiplexer.upstreamSubscriptions()).isEqualTo(1);
        assertThat(multiplexer.localSubscriptions()).isEqualTo(50);
        assertThat(upstream.subscribeCalls(channel)).as("SUBSCRIBEs sent upstream").isEqualTo(1);

        channels.publish(channel, posted(channel, 1));
        for (LocalSubscription subscriber : subscribers) {
            assertThat(next(subscriber)).isEqualTo(new LiveSignal.Event(channel, posted(channel, 1)));
        }
    }

    @Test
    void there_is_one_upstream_subscription_per_distinct_topic() {
        Channel first = randomChannel();
        Channel second = randomChannel();
        ChannelPattern pattern = randomPattern();

        multiplexer.subscribe(List.of(first, second));
        multiplexer.subscribe(List.of(second, pattern));
        multiplexer.subscribe(List.of(pattern));

        assertThat(multiplexer.upstreamSubscriptions()).isEqualTo(3);
        assertThat(upstream.subscribedTopics()).containsExactlyInAnyOrder(first, second, pattern);
    }

    @Test
    void the_last_subscriber_to_leave_unsubscribes_upstream_and_later_events_reach_no_one() throws Exception {
        Channel channel = randomChannel();
        Channel marker = randomChannel();
        LocalSubscription one = multiplexer.subscribe(List.of(channel));
        LocalSubscription two = multiplexer.subscribe(List.of(channel));
        LocalSubscription bystander = multiplexer.subscribe(List.of(marker));

        one.close();
        assertThat(multiplexer.upstreamSubscriptions()).as("one subscriber of the channel is left").isEqualTo(2);
        two.close();
        assertThat(multiplexer.upstreamSubscriptions()).isEqualTo(1);
        assertThat(multiplexer.localSubscriptions()).isEqualTo(1);
        assertThat(upstream.subscribedTopics()).containsExactly(marker);

        channels.publish(channel, posted(channel, 1));
        channels.publish(marker, posted(marker, 1));
        assertThat(next(bystander)).isEqualTo(new LiveSignal.Event(marker, posted(marker, 1)));
        assertThat(upstream.deliveredChannels()).doesNotContain(channel);
        assertThat(next(one)).isEqualTo(new LiveSignal.Closed(CloseReason.UNSUBSCRIBED));
        assertThat(next(two)).isEqualTo(new LiveSignal.Closed(CloseReason.UNSUBSCRIBED));
    }

    @Test
    void subscribe_returns_only_once_the_topic_is_subscribed_upstream() throws Exception {
        for (int round = 0; round < 100; round++) {
            Channel channel = randomChannel();
            try (LocalSubscription subscriber = multiplexer.subscribe(List.of(channel))) {
                channels.publish(channel, posted(channel, 1));

                assertThat(next(subscriber)).as("round %d", round)
                        .isEqualTo(new LiveSignal.Event(channel, posted(channel, 1)));
            }
        }
    }

    @Test
    void concurrent_subscribes_and_closes_leave_the_counts_consistent_and_the_upstream_working() throws Exception {
        String prefix = randomName();
        Channel matching = Channel.ofChat(ChatId.of(prefix + "-a"));
        List<Topic> topics = List.of(randomChannel(), randomChannel(), randomChannel(),
                new ChannelPattern("chat:" + prefix + "*"));
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> churners = IntStream.range(0, threads)
                    .<Future<?>>mapToObj(thread -> pool.submit(() -> {
                        start.await();
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        for (int round = 0; round < 200; round++) {
                            Topic some = topics.get(random.nextInt(topics.size()));
                            Topic other = topics.get(random.nextInt(topics.size()));
                            multiplexer.subscribe(List.of(some, other)).close();
                        }
                        return null;
                    }))
                    .toList();
            start.countDown();
            for (Future<?> churner : churners) {
                churner.get(45, TimeUnit.SECONDS);
            }
        }

        assertThat(multiplexer.upstreamSubscriptions()).isZero();
        assertThat(multiplexer.localSubscriptions()).isZero();
        assertThat(upstream.subscribedTopics()).as("topics still subscribed upstream").isEmpty();
        assertThat(upstream.violations()).as("a topic subscribed twice, or unsubscribed while not subscribed")
                .isEmpty();

        LocalSubscription fresh = multiplexer.subscribe(topics);
        List<LiveSignal> expected = new ArrayList<>();
        for (Topic topic : topics) {
            Channel channel = topic instanceof Channel named ? named : matching;
            channels.publish(channel, posted(channel, 1));
            expected.add(new LiveSignal.Event(channel, posted(channel, 1)));
        }
        List<LiveSignal> received = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
            received.add(next(fresh));
        }
        assertThat(received).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void a_subscriber_that_never_reads_is_cut_off_as_slow_while_a_reader_receives_everything() throws Exception {
        SubscriptionMultiplexer small = track(new SubscriptionMultiplexer(channels, 8));
        Channel channel = randomChannel();
        LocalSubscription idle = small.subscribe(List.of(channel));
        LocalSubscription reader = small.subscribe(List.of(channel));

        // In step with the reader, so only the idle subscriber's queue ever fills.
        for (long id = 1; id <= 20; id++) {
            channels.publish(channel, posted(channel, id));
            assertThat(next(reader)).isEqualTo(new LiveSignal.Event(channel, posted(channel, id)));
        }

        assertThat(next(idle)).isEqualTo(new LiveSignal.Closed(CloseReason.SLOW));
        assertThat(idle.isOpen()).isFalse();
        assertThat(idle.closeReason()).contains(CloseReason.SLOW);
        await("the slow subscriber to be forgotten").atMost(WAIT).until(() -> small.localSubscriptions() == 1);
        assertThat(small.upstreamSubscriptions()).as("the reader still needs the channel").isEqualTo(1);
    }

    @Test
    void a_pattern_topic_receives_the_events_of_matching_channels_only() throws Exception {
        String prefix = randomName();
        ChannelPattern pattern = new ChannelPattern("chat:" + prefix + "*");
        Channel matching = Channel.ofChat(ChatId.of(prefix + "-a"));
        Channel other = Channel.ofChat(ChatId.of("x" + prefix));
        LocalSubscription subscriber = multiplexer.subscribe(List.of(pattern));

        channels.publish(other, posted(other, 1));
        channels.publish(matching, posted(matching, 1));

        assertThat(next(subscriber)).isEqualTo(new LiveSignal.Event(matching, posted(matching, 1)));
    }

    @Test
    void the_intake_drops_the_events_it_rejects_for_its_subscriber_only() throws Exception {
        Channel channel = randomChannel();
        LiveEvent skipped = posted(channel, 1, "skip me");
        LiveEvent kept = posted(channel, 2, "keep me");
        LocalSubscription filtered = multiplexer.subscribe(List.of(channel),
                arriving -> arriving.event() instanceof MessagePosted p && p.message().body().startsWith("skip")
                        ? null : arriving);
        LocalSubscription everything = multiplexer.subscribe(List.of(channel));

        channels.publish(channel, skipped);
        channels.publish(channel, kept);

        assertThat(next(filtered)).isEqualTo(new LiveSignal.Event(channel, kept));
        assertThat(next(everything)).isEqualTo(new LiveSignal.Event(channel, skipped));
        assertThat(next(everything)).isEqualTo(new LiveSignal.Event(channel, kept));
    }

    @Test
    void after_the_upstream_connection_drops_every_subscriber_resyncs_and_events_flow_again() throws Exception {
        String prefix = randomName();
        Channel channel = randomChannel();
        Channel matching = Channel.ofChat(ChatId.of(prefix + "-a"));
        LocalSubscription byChannel = multiplexer.subscribe(List.of(channel));
        LocalSubscription byPattern = multiplexer.subscribe(List.of(new ChannelPattern("chat:" + prefix + "*")));

        store.dropLiveConnections();

        assertThat(next(byChannel)).isEqualTo(new LiveSignal.Resync());
        assertThat(next(byPattern)).isEqualTo(new LiveSignal.Resync());
        channels.publish(channel, posted(channel, 1));
        channels.publish(matching, posted(matching, 1));
        assertThat(next(byChannel)).isEqualTo(new LiveSignal.Event(channel, posted(channel, 1)));
        assertThat(next(byPattern)).isEqualTo(new LiveSignal.Event(matching, posted(matching, 1)));
    }

    @Test
    void closing_the_multiplexer_ends_every_subscription_as_shutdown() throws Exception {
        LocalSubscription one = multiplexer.subscribe(List.of(randomChannel()));
        LocalSubscription two = multiplexer.subscribe(List.of(randomPattern()));

        multiplexer.close();

        assertThat(next(one)).isEqualTo(new LiveSignal.Closed(CloseReason.SHUTDOWN));
        assertThat(next(two)).isEqualTo(new LiveSignal.Closed(CloseReason.SHUTDOWN));
        assertThat(multiplexer.localSubscriptions()).isZero();
        assertThat(upstream.connectionClosed()).as("upstream connection closed").isTrue();
        assertThatThrownBy(() -> multiplexer.subscribe(List.of(randomChannel())))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void a_live_feed_carries_the_users_chats_and_the_presence_of_its_co_members_only() throws Exception {
        Chats chats = store.chats();
        UserId alice = randomUser();
        UserId bob = randomUser();
        ChatId chat = ChatId.of(randomName());
        chats.open(chat, alice, Set.of(alice, bob), "hi", T0);
        LiveService live = new LiveService(multiplexer, chats, InstantSource.system());

        try (LiveFeed feed = live.subscribe(alice)) {
            Message sent = chats.send(chat, bob, "hello alice", T0.plusSeconds(1));
            assertThat(next(feed))
                    .isEqualTo(new LiveSignal.Event(Channel.ofChat(chat), new MessagePosted(chat, sent)));

            channels.publish(Channel.PRESENCE, new PresenceChanged(randomUser(), true, T0.plusSeconds(2)));
            channels.publish(Channel.PRESENCE, new PresenceChanged(bob, false, T0.plusSeconds(2)));
            assertThat(next(feed)).isEqualTo(new LiveSignal.Presence(Set.of(), Set.of(bob)));
        }
    }

    @Test
    void a_live_feed_follows_a_chat_joined_later_but_only_as_a_member() throws Exception {
        Chats chats = store.chats();
        UserId alice = randomUser();
        UserId carol = randomUser();
        ChatId stranger = ChatId.of(randomName());
        chats.open(stranger, carol, Set.of(carol, randomUser()), "not for alice", T0);
        LiveService live = new LiveService(multiplexer, chats, InstantSource.system());

        try (LiveFeed feed = live.subscribe(alice)) {
            assertThatThrownBy(() -> feed.follow(stranger)).isInstanceOf(NotAMemberException.class);

            ChatId joined = ChatId.of(randomName());
            chats.open(joined, carol, Set.of(carol, alice), "welcome", T0);
            feed.follow(joined);
            Message sent = chats.send(joined, carol, "you are in", T0.plusSeconds(1));

            assertThat(next(feed))
                    .isEqualTo(new LiveSignal.Event(Channel.ofChat(joined), new MessagePosted(joined, sent)));
        }
    }

    private SubscriptionMultiplexer track(SubscriptionMultiplexer created) {
        multiplexers.add(created);
        return created;
    }

    private static LiveSignal next(LocalSubscription subscriber) throws InterruptedException {
        return subscriber.next(WAIT).orElseThrow(() -> new AssertionError("no signal within " + WAIT));
    }

    /** Presence of others sharing the store never reaches the feed: it is not theirs to hear. */
    private static LiveSignal next(LiveFeed feed) throws InterruptedException {
        return feed.next(WAIT).orElseThrow(() -> new AssertionError("no signal within " + WAIT));
    }

    private static String randomName() {
        return "c" + UUID.randomUUID().toString().replace("-", "");
    }

    private static UserId randomUser() {
        return UserId.of("user-" + UUID.randomUUID());
    }

    private static Channel randomChannel() {
        return Channel.ofChat(ChatId.of(randomName()));
    }

    private static ChannelPattern randomPattern() {
        return new ChannelPattern("chat:" + randomName() + "*");
    }

    private static LiveEvent posted(Channel channel, long id) {
        return posted(channel, id, "message " + id);
    }

    private static LiveEvent posted(Channel channel, long id, String body) {
        return new MessagePosted(channel.chat().orElseThrow(), new Message(id, T0.plusMillis(id), UserId.of("alice"), body));
    }
}
