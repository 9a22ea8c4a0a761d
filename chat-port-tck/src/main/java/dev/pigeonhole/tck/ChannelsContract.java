package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.ChannelPattern;
import dev.pigeonhole.domain.model.live.LiveEvent.MessagePosted;
import dev.pigeonhole.domain.model.live.LiveEvent.PresenceChanged;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.fail;

/**
 * What every {@link Channels} promises (docs/DESIGN.md §3): publish to a channel, subscribe to a
 * channel or a pattern, per-channel order, and a reported resubscription after the connection
 * drops.
 *
 * <p>Channel names come from random chat ids, so tests on a shared store never hear each other.
 * Nothing here sleeps. To show that an event did <em>not</em> arrive, a test publishes a marker
 * on a channel the connection does follow, after the event, and checks once the marker is in.
 */
@Timeout(60)
public abstract class ChannelsContract {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final long WAIT_SECONDS = 10;

    private final OpenStores stores = new OpenStores();
    private final List<Channels.Connection> connections = new ArrayList<>();
    private StoreFixture store;
    private Channels channels;

    /** A fresh store, isolated from every other one alive at the same time. */
    protected abstract StoreFixture newStore(Limits limits);

    @BeforeEach
    void openStore() {
        store = newStore(Limits.DEFAULTS);
        stores.track(store);
        channels = store.channels();
    }

    @AfterEach
    void closeConnectionsAndStores() {
        connections.forEach(Channels.Connection::close);
        stores.closeAll();
    }

    @Test
    void a_published_event_reaches_a_connection_subscribed_to_its_channel() {
        Channel channel = randomChannel();
        Recorder recorder = new Recorder();
        connect(recorder).subscribe(channel);

        LiveEvent event = posted(channel, 1);
        channels.publish(channel, event);

        assertThat(recorder.next()).isEqualTo(new Delivery(channel, channel, event));
    }

    @Test
    void a_users_own_channel_carries_its_news_to_that_user_alone() {
        UserId carol = UserId.of("u" + randomName());
        Channel mine = Channel.ofUser(carol);
        Channel someoneElses = Channel.ofUser(UserId.of("u" + randomName()));
        Recorder recorder = new Recorder();
        connect(recorder).subscribe(mine);

        LiveEvent joined = new LiveEvent.MembershipChanged(carol, ChatId.of(randomName()), true);
        channels.publish(someoneElses, new LiveEvent.MembershipChanged(UserId.of("dave"), ChatId.of(randomName()), true));
        channels.publish(mine, joined);

        assertThat(recorder.next()).isEqualTo(new Delivery(mine, mine, joined));
        recorder.assertNothingElseArrived();
    }

    @Test
    void every_kind_of_event_arrives_intact() {
        Channel channel = randomChannel();
        Recorder recorder = new Recorder();
        connect(recorder).subscribe(channel);
        LiveEvent message = new MessagePosted(channel.chat().orElseThrow(),
                new Message(7, T0.plusMillis(123), UserId.of("alice"), "hello, ünïcødé \"quoted\" {}"));
        LiveEvent presence = new PresenceChanged(UserId.of("bob"), false, T0.plusMillis(456));
        LiveEvent joined = new LiveEvent.MembershipChanged(UserId.of("carol"), channel.chat().orElseThrow(), true);
        LiveEvent left = new LiveEvent.MembershipChanged(UserId.of("carol"), channel.chat().orElseThrow(), false);

        channels.publish(channel, message);
        channels.publish(channel, presence);
        channels.publish(channel, joined);
        channels.publish(channel, left);

        assertThat(recorder.next(4)).extracting(Delivery::event).containsExactly(message, presence, joined, left);
    }

    @Test
    void a_pattern_subscription_receives_matching_channels_via_the_pattern_and_no_others() {
        String prefix = randomName();
        ChannelPattern pattern = new ChannelPattern("chat:" + prefix + "*");
        Channel first = Channel.ofChat(ChatId.of(prefix + "-a"));
        Channel second = Channel.ofChat(ChatId.of(prefix + "-b"));
        Channel other = Channel.ofChat(ChatId.of("x" + prefix));
        Recorder recorder = new Recorder();
        connect(recorder).subscribe(pattern);

        channels.publish(other, posted(other, 1));
        channels.publish(first, posted(first, 1));
        channels.publish(second, posted(second, 1));

        assertThat(recorder.next(2)).containsExactlyInAnyOrder(
                new Delivery(pattern, first, posted(first, 1)),
                new Delivery(pattern, second, posted(second, 1)));
        recorder.assertNothingElseArrived();
    }

    @Test
    void an_event_matching_a_channel_and_a_pattern_arrives_once_for_each() {
        String prefix = randomName();
        ChannelPattern pattern = new ChannelPattern("chat:" + prefix + "*");
        Channel channel = Channel.ofChat(ChatId.of(prefix + "-a"));
        Recorder recorder = new Recorder();
        Channels.Connection connection = connect(recorder);
        connection.subscribe(channel);
        connection.subscribe(pattern);

        channels.publish(channel, posted(channel, 1));
        channels.publish(channel, posted(channel, 2));

        // Were the first event delivered a third time, it would take the place of one of these.
        assertThat(recorder.next(4)).containsExactlyInAnyOrder(
                new Delivery(channel, channel, posted(channel, 1)),
                new Delivery(pattern, channel, posted(channel, 1)),
                new Delivery(channel, channel, posted(channel, 2)),
                new Delivery(pattern, channel, posted(channel, 2)));
    }

    @Test
    void subscribing_twice_delivers_each_event_once() {
        Channel channel = randomChannel();
        Recorder recorder = new Recorder();
        Channels.Connection connection = connect(recorder);
        connection.subscribe(channel);
        connection.subscribe(channel);

        channels.publish(channel, posted(channel, 1));
        channels.publish(channel, posted(channel, 2));

        assertThat(recorder.next(2)).extracting(Delivery::event)
                .containsExactly(posted(channel, 1), posted(channel, 2));
    }

    @Test
    void after_unsubscribe_no_more_events_arrive() {
        Channel dropped = randomChannel();
        Channel kept = randomChannel();
        Recorder recorder = new Recorder();
        Channels.Connection connection = connect(recorder);
        connection.subscribe(dropped);
        connection.subscribe(kept);
        channels.publish(dropped, posted(dropped, 1));
        assertThat(recorder.next().channel()).isEqualTo(dropped);

        connection.unsubscribe(dropped);
        channels.publish(dropped, posted(dropped, 2));
        channels.publish(kept, posted(kept, 1));

        assertThat(recorder.next()).isEqualTo(new Delivery(kept, kept, posted(kept, 1)));
        recorder.assertNothingElseArrived();
    }

    @Test
    void unsubscribing_an_unknown_topic_is_harmless() {
        Channel channel = randomChannel();
        Recorder recorder = new Recorder();
        Channels.Connection connection = connect(recorder);
        connection.subscribe(channel);

        assertThatCode(() -> {
            connection.unsubscribe(randomChannel());
            connection.unsubscribe(new ChannelPattern("chat:" + randomName() + "*"));
        }).doesNotThrowAnyException();

        channels.publish(channel, posted(channel, 1));
        assertThat(recorder.next().event()).isEqualTo(posted(channel, 1));
    }

    @Test
    void events_of_one_channel_arrive_in_publish_order() {
        Channel channel = randomChannel();
        Recorder recorder = new Recorder();
        connect(recorder).subscribe(channel);
        List<LiveEvent> published = LongStream.rangeClosed(1, 500).mapToObj(id -> posted(channel, id)).toList();

        published.forEach(event -> channels.publish(channel, event));

        assertThat(recorder.next(published.size())).extracting(Delivery::event)
                .containsExactlyElementsOf(published);
    }

    @Test
    void every_subscribed_connection_receives_the_event() {
        Channel channel = randomChannel();
        Recorder one = new Recorder();
        Recorder two = new Recorder();
        connect(one).subscribe(channel);
        connect(two).subscribe(channel);

        channels.publish(channel, posted(channel, 1));

        assertThat(one.next().event()).isEqualTo(posted(channel, 1));
        assertThat(two.next().event()).isEqualTo(posted(channel, 1));
    }

    @Test
    void after_the_connection_drops_the_receiver_is_told_and_its_subscriptions_work_again() {
        String prefix = randomName();
        Channel channel = randomChannel();
        ChannelPattern pattern = new ChannelPattern("chat:" + prefix + "*");
        Channel matching = Channel.ofChat(ChatId.of(prefix + "-a"));
        Recorder recorder = new Recorder();
        Channels.Connection connection = connect(recorder);
        connection.subscribe(channel);
        connection.subscribe(pattern);

        store.dropLiveConnections();
        recorder.awaitResubscribed();

        channels.publish(channel, posted(channel, 1));
        channels.publish(matching, posted(matching, 1));
        assertThat(recorder.next(2)).containsExactlyInAnyOrder(
                new Delivery(channel, channel, posted(channel, 1)),
                new Delivery(pattern, matching, posted(matching, 1)));
    }

    @Test
    void publishing_with_nobody_subscribed_is_harmless_and_is_not_kept_for_later() {
        Channel channel = randomChannel();

        assertThatCode(() -> channels.publish(channel, posted(channel, 1))).doesNotThrowAnyException();

        Recorder late = new Recorder();
        connect(late).subscribe(channel);
        channels.publish(channel, posted(channel, 2));
        assertThat(late.next().event()).as("pub/sub replays nothing").isEqualTo(posted(channel, 2));
    }

    @Test
    void after_close_nothing_more_is_delivered_not_even_a_resubscription() {
        Channel channel = randomChannel();
        Recorder closed = new Recorder();
        Recorder witness = new Recorder();
        Channels.Connection closing = channels.connect(closed); // closed by this test, not after it
        closing.subscribe(channel);
        connect(witness).subscribe(channel);

        closing.close();
        channels.publish(channel, posted(channel, 1));
        assertThat(witness.next().event()).isEqualTo(posted(channel, 1));
        store.dropLiveConnections();
        witness.awaitResubscribed();

        closed.assertNothingElseArrived();
    }

    private Channels.Connection connect(Recorder recorder) {
        Channels.Connection connection = channels.connect(recorder);
        connections.add(connection);
        return connection;
    }

    private static String randomName() {
        return "c" + UUID.randomUUID().toString().replace("-", "");
    }

    private static Channel randomChannel() {
        return Channel.ofChat(ChatId.of(randomName()));
    }

    /** The {@code id}-th message of the channel's chat; equal each time it is asked for. */
    private static LiveEvent posted(Channel channel, long id) {
        return new MessagePosted(channel.chat().orElseThrow(),
                new Message(id, T0.plusMillis(id), UserId.of("alice"), "message " + id));
    }

    /** One {@link Channels.Receiver#onEvent} call. */
    record Delivery(Topic via, Channel channel, LiveEvent event) {
    }

    /** Keeps what a connection delivers, without ever blocking the delivery thread. */
    private static final class Recorder implements Channels.Receiver {

        private final BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
        private final CountDownLatch resubscribed = new CountDownLatch(1);

        @Override
        public void onEvent(Topic via, Channel channel, LiveEvent event) {
            deliveries.add(new Delivery(via, channel, event));
        }

        @Override
        public void onResubscribed() {
            resubscribed.countDown();
        }

        Delivery next() {
            try {
                Delivery delivery = deliveries.poll(WAIT_SECONDS, TimeUnit.SECONDS);
                if (delivery == null) {
                    fail("no event arrived within " + WAIT_SECONDS + " s");
                }
                return delivery;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for an event", e);
            }
        }

        List<Delivery> next(int count) {
            List<Delivery> received = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                received.add(next());
            }
            return received;
        }

        /** Only meaningful once a later marker has arrived on some connection. */
        void assertNothingElseArrived() {
            assertThat(deliveries).as("deliveries nobody asked for").isEmpty();
            assertThat(resubscribed.getCount()).as("no resubscription was reported").isEqualTo(1);
        }

        void awaitResubscribed() {
            try {
                if (!resubscribed.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    fail("no resubscription was reported within " + WAIT_SECONDS + " s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for the resubscription", e);
            }
        }
    }
}
