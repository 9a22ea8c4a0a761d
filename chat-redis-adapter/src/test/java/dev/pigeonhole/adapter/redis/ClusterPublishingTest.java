package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.ChannelPattern;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveEvent.DirectMessageDelivered;
import dev.pigeonhole.domain.model.live.LiveEvent.MessagePosted;
import dev.pigeonhole.domain.model.live.LiveEvent.PresenceChanged;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What an event costs a cluster, and what a pattern meets there. With patterns on the cluster off
 * (the server's default) a send, a delivery and an announcement each go out once, as SPUBLISH to
 * their shard, and a pattern subscription is refused by naming the option that turns patterns on;
 * with it on, each goes out both ways and a pattern hears it. The contract suite runs on a cluster
 * with patterns on, as the {@link Channels} contract asks.
 *
 * <p>Publishes are counted by the servers themselves ({@code INFO commandstats} over the masters,
 * commands run by a script included). Other tests share the cluster, but the suite runs one test at
 * a time.
 */
@Timeout(60)
class ClusterPublishingTest {

    private static final Instant AT = Instant.parse("2026-11-21T10:00:00Z");

    private final BlockingQueue<Delivery> heard = new LinkedBlockingQueue<>();
    private RedisTarget target;
    private StoreFixture store;

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    @ParameterizedTest(name = "patterns on the cluster: {0}")
    @ValueSource(booleans = {false, true})
    void a_send_a_delivery_and_an_announcement_each_go_out_once_unless_patterns_are_on(boolean patterns)
            throws InterruptedException {
        open(patterns);
        UserId alice = user();
        UserId bob = user();
        ChatId chat = store.chats().newChatId();
        store.chats().open(chat, alice, Set.of(bob), "hello", AT);
        Channel chatChannel = Channel.ofChat(chat);
        Channel bobs = Channel.ofUser(bob);
        Channels.Connection connection = store.channels().connect(new Recorder());
        connection.subscribe(chatChannel);
        connection.subscribe(bobs);
        connection.subscribe(Channel.PRESENCE);
        ChannelPattern chatPattern = new ChannelPattern("chat:" + chat.value() + "*");
        if (patterns) {
            connection.subscribe(chatPattern);
        }
        Publishes expected = patterns ? new Publishes(1, 1) : new Publishes(1, 0);

        assertThat(publishes(() -> store.chats().send(chat, alice, "one", AT))).as("a send").isEqualTo(expected);
        assertThat(publishes(() -> store.mailboxes().deliver(bob, alice, "ping", AT))).as("a delivery")
                .isEqualTo(expected);
        assertThat(publishes(() -> store.channels().publish(Channel.PRESENCE, new PresenceChanged(alice, true, AT))))
                .as("an announcement").isEqualTo(expected);

        // The one SPUBLISH is what channel subscribers hear; the PUBLISH beside it, what the pattern
        // hears. The two come over different connections, so in either order.
        List<Heard> expectedHeard = new ArrayList<>(List.of(
                new Heard(chatChannel, chatChannel, MessagePosted.class),
                new Heard(bobs, bobs, DirectMessageDelivered.class),
                new Heard(Channel.PRESENCE, Channel.PRESENCE, PresenceChanged.class)));
        if (patterns) {
            expectedHeard.add(new Heard(chatPattern, chatChannel, MessagePosted.class));
        }
        List<Heard> arrived = new ArrayList<>();
        for (int i = 0; i < expectedHeard.size(); i++) {
            Delivery delivery = next();
            arrived.add(new Heard(delivery.via(), delivery.channel(), delivery.event().getClass()));
        }
        assertThat(arrived).containsExactlyInAnyOrderElementsOf(expectedHeard);
    }

    @Test
    void with_patterns_off_a_pattern_subscription_is_refused_naming_the_option_and_channels_still_work()
            throws InterruptedException {
        open(false);
        Channels.Connection connection = store.channels().connect(new Recorder());
        ChannelPattern pattern = new ChannelPattern("chat:" + UUID.randomUUID().toString().substring(0, 8) + "*");

        assertThatThrownBy(() -> connection.subscribe(pattern))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining(pattern.glob())
                .hasMessageContaining("--redis-cluster-patterns")
                .hasMessageContaining("PIGEONHOLE_REDIS_CLUSTER_PATTERNS");
        connection.unsubscribe(pattern); // never subscribed: harmless, as for any unknown topic

        Channel channel = Channel.ofChat(store.chats().newChatId());
        connection.subscribe(channel);
        store.channels().publish(channel, new PresenceChanged(user(), true, AT));
        assertThat(next()).extracting(Delivery::via, Delivery::channel).containsExactly(channel, channel);
    }

    /** Calls of each command over the masters while {@code work} runs. */
    record Publishes(long spublish, long publish) {
    }

    private Publishes publishes(Runnable work) {
        long spublish = target.commandCalls("spublish");
        long publish = target.commandCalls("publish");
        work.run();
        return new Publishes(target.commandCalls("spublish") - spublish, target.commandCalls("publish") - publish);
    }

    private void open(boolean patternsOnCluster) {
        target = RedisServers.cluster();
        store = RedisStoreFixture.open(target, RedisClientKind.LETTUCE, KeyLayout.tagged(target.newPrefix()),
                Limits.DEFAULTS, UnaryOperator.identity(), patternsOnCluster);
    }

    private Delivery next() throws InterruptedException {
        Delivery delivery = heard.poll(10, TimeUnit.SECONDS);
        assertThat(delivery).as("an event within 10 s").isNotNull();
        return delivery;
    }

    private static UserId user() {
        return UserId.of("u" + UUID.randomUUID().toString().substring(0, 8));
    }

    private record Delivery(Topic via, Channel channel, LiveEvent event) {
    }

    private record Heard(Topic via, Channel channel, Class<?> kind) {
    }

    private final class Recorder implements Channels.Receiver {

        @Override
        public void onEvent(Topic via, Channel channel, LiveEvent event) {
            heard.add(new Delivery(via, channel, event));
        }

        @Override
        public void onResubscribed() {
        }
    }
}
