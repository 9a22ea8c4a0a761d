package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a store announced on some channels (chats' or owners'), as a subscriber hears them. To
 * know that nothing more is on its way, it publishes a marker on each channel after the last
 * operation and waits for it: a channel delivers in publish order, so by the time the marker
 * arrives every announcement before it has too.
 */
final class Announcements implements AutoCloseable {

    private static final UserId MARKER = UserId.of("end-of-announcements");

    private final StoreFixture store;
    private final List<Channel> channels;
    private final Map<Channel, List<LiveEvent>> heard = new ConcurrentHashMap<>();
    private final CountDownLatch markers;
    private final Channels.Connection connection;
    private volatile boolean resubscribed;

    private Announcements(StoreFixture store, List<Channel> channels) {
        this.store = store;
        this.channels = List.copyOf(channels);
        this.markers = new CountDownLatch(channels.size());
        this.connection = store.channels().connect(new Channels.Receiver() {
            @Override
            public void onEvent(Topic via, Channel channel, LiveEvent event) {
                if (event instanceof LiveEvent.PresenceChanged marker && marker.user().equals(MARKER)) {
                    markers.countDown();
                } else {
                    heard.computeIfAbsent(channel, heardOn -> new CopyOnWriteArrayList<>()).add(event);
                }
            }

            @Override
            public void onResubscribed() {
                resubscribed = true;
            }
        });
    }

    /** Subscribed to every channel before this returns, so nothing announced afterwards is missed. */
    static Announcements listen(StoreFixture store, List<Channel> channels) {
        Announcements announcements = new Announcements(store, channels);
        channels.forEach(announcements.connection::subscribe);
        return announcements;
    }

    void expectExactly(Map<Channel, List<LiveEvent>> expected) {
        for (Channel channel : channels) {
            store.channels().publish(channel, new LiveEvent.PresenceChanged(MARKER, true, Instant.EPOCH));
        }
        try {
            assertThat(markers.await(20, TimeUnit.SECONDS)).as("every chat's channel delivered the end marker").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for announcements", e);
        }
        assertThat(resubscribed).as("the subscription was never lost, so nothing can have been missed").isFalse();
        Map<Channel, List<LiveEvent>> announced = new HashMap<>();
        heard.forEach((channel, events) -> announced.put(channel, List.copyOf(events)));
        Map<Channel, List<LiveEvent>> wanted = new HashMap<>();
        expected.forEach((channel, events) -> {
            if (!events.isEmpty()) {
                wanted.put(channel, List.copyOf(events));
            }
        });
        assertThat(announced).as("what each channel announced, in order").isEqualTo(wanted);
    }

    @Override
    public void close() {
        connection.close();
    }
}
