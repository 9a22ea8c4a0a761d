package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.ChannelPattern;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;

import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publish/subscribe inside one JVM, behaving like a Redis server seen through one client
 * connection per {@link #connect}.
 *
 * <p>Subscriptions are kept as two maps, channel to connections and pattern to connections, whose
 * values are immutable sets replaced on every change. Publishing therefore takes no lock: one map
 * lookup, and a look at the patterns only if there are any, is all a publish costs when nobody
 * listens. Each connection has a bounded queue and a dispatcher thread of its own (see
 * {@link ChannelConnection}), so a slow receiver never holds up a publisher.
 */
public final class InMemoryChannels implements Channels {

    /** Like a Redis client's output buffer limit: generous, but a limit. */
    static final int DEFAULT_QUEUE_CAPACITY = 65_536;

    private final int queueCapacity;
    private final ConcurrentHashMap<Channel, Set<ChannelConnection>> byChannel = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ChannelPattern, Set<ChannelConnection>> byPattern = new ConcurrentHashMap<>();
    private final Set<ChannelConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong connectionsOpened = new AtomicLong();

    public InMemoryChannels() {
        this(DEFAULT_QUEUE_CAPACITY);
    }

    /** A small capacity lets a test overflow a connection's queue without publishing 65 536 events. */
    InMemoryChannels(int queueCapacity) {
        if (queueCapacity < 1) {
            throw new InvalidInputException("queueCapacity must be at least 1, not " + queueCapacity);
        }
        this.queueCapacity = queueCapacity;
    }

    @Override
    public void publish(Channel channel, LiveEvent event) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(event, "event");
        Set<ChannelConnection> direct = byChannel.get(channel);
        if (direct != null) {
            for (ChannelConnection connection : direct) {
                connection.enqueue(channel, channel, event);
            }
        }
        if (!byPattern.isEmpty()) {
            for (Map.Entry<ChannelPattern, Set<ChannelConnection>> entry : byPattern.entrySet()) {
                if (entry.getKey().matches(channel)) {
                    for (ChannelConnection connection : entry.getValue()) {
                        connection.enqueue(entry.getKey(), channel, event);
                    }
                }
            }
        }
    }

    @Override
    public Connection connect(Receiver receiver) {
        Objects.requireNonNull(receiver, "receiver");
        ChannelConnection connection = new ChannelConnection(this, receiver, queueCapacity,
                "pigeonhole-channels-" + connectionsOpened.incrementAndGet());
        connections.add(connection);
        connection.start();
        return connection;
    }

    /**
     * Simulates losing the upstream connection and getting it back, as a Redis client does after
     * a network blip or a server restart: every connection drops the deliveries still waiting in
     * its queue, keeps its subscriptions, and then calls {@link Receiver#onResubscribed()} on its
     * own delivery thread. Contract tests use it to prove that subscribers resync by pulling.
     * Returns without waiting for the receivers.
     */
    public void disconnectAll() {
        for (ChannelConnection connection : connections) {
            connection.dropBacklog();
        }
    }

    void add(Topic topic, ChannelConnection connection) {
        switch (topic) {
            case Channel channel -> byChannel.compute(channel, (key, set) -> with(set, connection));
            case ChannelPattern pattern -> byPattern.compute(pattern, (key, set) -> with(set, connection));
        }
    }

    void remove(Topic topic, ChannelConnection connection) {
        switch (topic) {
            case Channel channel -> byChannel.computeIfPresent(channel, (key, set) -> without(set, connection));
            case ChannelPattern pattern -> byPattern.computeIfPresent(pattern, (key, set) -> without(set, connection));
        }
    }

    void closed(ChannelConnection connection) {
        connections.remove(connection);
    }

    // Copy on write: a publisher iterating the old set is never disturbed, and sets are tiny
    // (usually one connection per process), so copying them is cheap.

    private static Set<ChannelConnection> with(Set<ChannelConnection> set, ChannelConnection connection) {
        if (set == null) {
            return Set.of(connection);
        }
        Set<ChannelConnection> copy = new HashSet<>(set);
        copy.add(connection);
        return Set.copyOf(copy);
    }

    /** Returns null for an empty set, which removes the key, so old channels leave nothing behind. */
    private static Set<ChannelConnection> without(Set<ChannelConnection> set, ChannelConnection connection) {
        Set<ChannelConnection> copy = new HashSet<>(set);
        copy.remove(connection);
        return copy.isEmpty() ? null : Set.copyOf(copy);
    }
}
