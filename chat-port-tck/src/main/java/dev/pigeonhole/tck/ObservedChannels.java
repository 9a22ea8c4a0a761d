package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The store's channels, passed through unchanged, noting what the multiplexer's one upstream
 * connection is asked to do and what it delivers: {@link SubscriptionMultiplexerContract} checks
 * "one upstream subscription per topic" here, where the store sees it, not only in the
 * multiplexer's own count.
 */
final class ObservedChannels implements Channels {

    private final Channels real;
    /** Every subscribe call per topic. */
    private final Map<Topic, AtomicInteger> subscribeCalls = new ConcurrentHashMap<>();
    /** Subscribes minus unsubscribes per topic: 1 while subscribed, 0 after, never anything else. */
    private final Map<Topic, AtomicInteger> netSubscriptions = new ConcurrentHashMap<>();
    private final Queue<String> violations = new ConcurrentLinkedQueue<>();
    private final Queue<Channel> delivered = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    ObservedChannels(Channels real) {
        this.real = real;
    }

    @Override
    public void publish(Channel channel, LiveEvent event) {
        real.publish(channel, event);
    }

    @Override
    public Connection connect(Receiver receiver) {
        Connection connection = real.connect(new Receiver() {
            @Override
            public void onEvent(Topic via, Channel channel, LiveEvent event) {
                delivered.add(channel);
                receiver.onEvent(via, channel, event);
            }

            @Override
            public void onResubscribed() {
                receiver.onResubscribed();
            }
        });
        return new Connection() {
            @Override
            public void subscribe(Topic topic) {
                connection.subscribe(topic);
                subscribeCalls.computeIfAbsent(topic, t -> new AtomicInteger()).incrementAndGet();
                if (netSubscriptions.computeIfAbsent(topic, t -> new AtomicInteger()).incrementAndGet() != 1) {
                    violations.add("subscribed " + topic + " while subscribed");
                }
            }

            @Override
            public void unsubscribe(Topic topic) {
                connection.unsubscribe(topic);
                if (netSubscriptions.computeIfAbsent(topic, t -> new AtomicInteger()).decrementAndGet() != 0) {
                    violations.add("unsubscribed " + topic + " while not subscribed");
                }
            }

            @Override
            public void close() {
                if (closed.compareAndSet(false, true)) {
                    connection.close();
                }
            }
        };
    }

    int subscribeCalls(Topic topic) {
        AtomicInteger calls = subscribeCalls.get(topic);
        return calls == null ? 0 : calls.get();
    }

    /** The topics the connection is subscribed to now, going by the calls it received. */
    Set<Topic> subscribedTopics() {
        Set<Topic> now = ConcurrentHashMap.newKeySet();
        netSubscriptions.forEach((topic, count) -> {
            if (count.get() > 0) {
                now.add(topic);
            }
        });
        return now;
    }

    List<String> violations() {
        return List.copyOf(violations);
    }

    List<Channel> deliveredChannels() {
        return List.copyOf(delivered);
    }

    boolean connectionClosed() {
        return closed.get();
    }
}
