package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
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
 * The messages a store announced on some chats' channels, as a subscriber hears them. To know
 * that nothing more is on its way, it publishes a marker on each channel after the last
 * operation and waits for it: a channel delivers in publish order, so by the time the marker
 * arrives every announcement before it has too.
 */
final class Announcements implements AutoCloseable {

    private static final UserId MARKER = UserId.of("end-of-announcements");

    private final StoreFixture store;
    private final List<ChatId> chats;
    private final Map<ChatId, List<LiveEvent>> heard = new ConcurrentHashMap<>();
    private final CountDownLatch markers;
    private final Channels.Connection connection;
    private volatile boolean resubscribed;

    private Announcements(StoreFixture store, List<ChatId> chats) {
        this.store = store;
        this.chats = List.copyOf(chats);
        this.markers = new CountDownLatch(chats.size());
        this.connection = store.channels().connect(new Channels.Receiver() {
            @Override
            public void onEvent(Topic via, Channel channel, LiveEvent event) {
                switch (event) {
                    case LiveEvent.MessagePosted posted ->
                            heard.computeIfAbsent(posted.chat(), chat -> new CopyOnWriteArrayList<>()).add(posted);
                    case LiveEvent.PresenceChanged marker when marker.user().equals(MARKER) -> markers.countDown();
                    default -> {
                    }
                }
            }

            @Override
            public void onResubscribed() {
                resubscribed = true;
            }
        });
    }

    /** Subscribed to every chat's channel before this returns, so nothing announced afterwards is missed. */
    static Announcements listen(StoreFixture store, List<ChatId> chats) {
        Announcements announcements = new Announcements(store, chats);
        chats.forEach(chat -> announcements.connection.subscribe(Channel.ofChat(chat)));
        return announcements;
    }

    void expectExactly(Map<ChatId, List<LiveEvent>> expected) {
        for (ChatId chat : chats) {
            store.channels().publish(Channel.ofChat(chat), new LiveEvent.PresenceChanged(MARKER, true, Instant.EPOCH));
        }
        try {
            assertThat(markers.await(20, TimeUnit.SECONDS)).as("every chat's channel delivered the end marker").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for announcements", e);
        }
        assertThat(resubscribed).as("the subscription was never lost, so nothing can have been missed").isFalse();
        Map<ChatId, List<LiveEvent>> announced = new HashMap<>();
        heard.forEach((chat, events) -> announced.put(chat, List.copyOf(events)));
        Map<ChatId, List<LiveEvent>> wanted = new HashMap<>();
        expected.forEach((chat, events) -> {
            if (!events.isEmpty()) {
                wanted.put(chat, List.copyOf(events));
            }
        });
        assertThat(announced).as("messages announced on each chat's channel, in order").isEqualTo(wanted);
    }

    @Override
    public void close() {
        connection.close();
    }
}
