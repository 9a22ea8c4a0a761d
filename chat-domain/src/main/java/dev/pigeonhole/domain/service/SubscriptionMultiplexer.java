package dev.pigeonhole.domain.service;

import dev.pigeonhole.domain.model.Channel;
import dev.pigeonhole.domain.model.LiveEvent;
import dev.pigeonhole.domain.model.LiveSignal;
import dev.pigeonhole.domain.model.LiveSignal.CloseReason;
import dev.pigeonhole.domain.model.Topic;
import dev.pigeonhole.domain.port.out.Channels;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * Shares one upstream subscription per topic among every local subscriber of this process.
 *
 * <p>A thousand WebSocket clients in ten chats cost the store ten subscriptions, not a thousand:
 * the first local subscriber of a topic subscribes upstream, the last one to leave unsubscribes,
 * and every event is fanned out in memory. Fan-out never blocks: each subscriber has a bounded
 * queue, and one that is full is cut off as {@link CloseReason#SLOW} (it reconnects and pulls)
 * instead of holding up the others or growing without bound.
 *
 * <p>Subscribe and unsubscribe take one lock, so the reference count and the upstream state never
 * disagree; the hot path, fan-out, takes none.
 */
public final class SubscriptionMultiplexer implements AutoCloseable {

    public static final int DEFAULT_QUEUE_CAPACITY = 1_024;

    private final Channels.Connection upstream;
    private final int queueCapacity;
    private final Map<Topic, Set<LocalSubscription>> subscribersByTopic = new ConcurrentHashMap<>();
    private final Set<LocalSubscription> subscriptions = ConcurrentHashMap.newKeySet();
    private final ReentrantLock topicChanges = new ReentrantLock();
    private volatile boolean closed;

    public SubscriptionMultiplexer(Channels channels, int queueCapacity) {
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queueCapacity must be at least 1, not " + queueCapacity);
        }
        this.queueCapacity = queueCapacity;
        this.upstream = Objects.requireNonNull(channels, "channels").connect(new FanOut());
    }

    /**
     * A new local subscription to {@code topics}, every one of them subscribed upstream before
     * this returns. Events that {@code filter} rejects are not queued for this subscriber.
     */
    public LocalSubscription subscribe(Collection<? extends Topic> topics, Predicate<LiveEvent> filter) {
        if (closed) {
            throw new IllegalStateException("the multiplexer is closed");
        }
        LocalSubscription subscription = new LocalSubscription(this, queueCapacity, filter);
        subscriptions.add(subscription);
        try {
            topics.forEach(subscription::add);
        } catch (RuntimeException e) {
            subscription.close();
            throw e;
        }
        return subscription;
    }

    public LocalSubscription subscribe(Collection<? extends Topic> topics) {
        return subscribe(topics, event -> true);
    }

    /** How many topics are subscribed upstream right now: one per topic, however many listen. */
    public int upstreamSubscriptions() {
        return subscribersByTopic.size();
    }

    /** How many local subscriptions are open. */
    public int localSubscriptions() {
        return subscriptions.size();
    }

    /**
     * Ends every subscription with {@link CloseReason#SHUTDOWN} and closes the upstream
     * connection. Closing twice is harmless.
     */
    @Override
    public void close() {
        topicChanges.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            topicChanges.unlock();
        }
        subscriptions.forEach(subscription -> subscription.end(CloseReason.SHUTDOWN));
        subscriptions.clear();
        subscribersByTopic.clear();
        upstream.close();
    }

    void attach(LocalSubscription subscription, Topic topic) {
        topicChanges.lock();
        try {
            Set<LocalSubscription> subscribers = subscribersByTopic.get(topic);
            if (subscribers == null) {
                // Subscribe upstream before the topic becomes visible: once attach returns,
                // anything published to it reaches this subscriber.
                upstream.subscribe(topic);
                subscribers = ConcurrentHashMap.newKeySet();
                subscribersByTopic.put(topic, subscribers);
            }
            subscribers.add(subscription);
        } finally {
            topicChanges.unlock();
        }
    }

    void detach(LocalSubscription subscription, Topic topic) {
        topicChanges.lock();
        try {
            Set<LocalSubscription> subscribers = subscribersByTopic.get(topic);
            if (subscribers != null && subscribers.remove(subscription) && subscribers.isEmpty()) {
                subscribersByTopic.remove(topic);
                if (!closed) {
                    upstream.unsubscribe(topic);
                }
            }
        } finally {
            topicChanges.unlock();
        }
    }

    void forget(LocalSubscription subscription) {
        subscriptions.remove(subscription);
    }

    /** Receives from upstream on the adapter's delivery thread, which must never block. */
    private final class FanOut implements Channels.Receiver {

        @Override
        public void onEvent(Topic via, Channel channel, LiveEvent event) {
            Set<LocalSubscription> subscribers = subscribersByTopic.get(via);
            if (subscribers == null) {
                return;
            }
            LiveSignal signal = new LiveSignal.Event(channel, event);
            for (LocalSubscription subscriber : subscribers) {
                subscriber.offer(signal, event);
            }
        }

        @Override
        public void onResubscribed() {
            LiveSignal resync = new LiveSignal.Resync();
            for (LocalSubscription subscriber : subscriptions) {
                subscriber.offer(resync, null);
            }
        }
    }
}
