package dev.pigeonhole.domain.service.live;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal.CloseReason;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Shares one upstream subscription per topic among every local subscriber of this process.
 *
 * <p>A thousand WebSocket clients in ten chats cost the store ten subscriptions, not a thousand:
 * the first local subscriber of a topic subscribes upstream, the last one to leave unsubscribes,
 * and every event is fanned out in memory. Fan-out never blocks: each subscriber has a bounded
 * queue, and one that is full is cut off as {@link CloseReason#SLOW} (it reconnects and pulls)
 * instead of holding up the others or growing without bound.
 *
 * <p>Each topic has a lock of its own, held across its upstream round trip, so a topic's
 * reference count and its upstream state never disagree, while a slow subscribe of one topic
 * holds up no other topic's. The hot path, fan-out, takes none.
 *
 * <p>Presence is one topic for the whole server, yet a subscriber may want to hear of only a few
 * people's (a live feed hears of those it shares a chat with). Such a subscriber names them, and
 * each change of presence is offered to those who named the person, found by the person: someone
 * coming online then costs as many offers as people listen for them, not one per subscriber on
 * the server, most of which would be dropped.
 */
public final class SubscriptionMultiplexer implements AutoCloseable {

    public static final int DEFAULT_QUEUE_CAPACITY = 1_024;

    private final Channels.Connection upstream;
    private final int queueCapacity;
    private final Map<Topic, TopicState> topics = new ConcurrentHashMap<>();
    private final Set<LocalSubscription> subscriptions = ConcurrentHashMap.newKeySet();
    /** For each person, the subscribers that {@linkplain LocalSubscription#hearPresenceOf named} them. */
    private final Map<UserId, Set<LocalSubscription>> presenceListeners = new ConcurrentHashMap<>();
    /**
     * Shared by every attach and detach, taken alone by close: so the upstream connection is never
     * used once closed, without topics waiting for each other.
     */
    private final ReadWriteLock closing = new ReentrantReadWriteLock();
    private volatile boolean closed;

    /**
     * One topic's local subscribers and whether it is subscribed upstream. A state that lost its
     * last subscriber is retired: it stays in the map, locked, until upstream has confirmed the
     * unsubscribe, so whoever attaches next waits and then starts a fresh state, and an
     * unsubscribe can never overtake the subscribe that follows it.
     */
    private static final class TopicState {
        final ReentrantLock lock = new ReentrantLock();
        final Set<LocalSubscription> subscribers = ConcurrentHashMap.newKeySet();
        /** Those of the subscribers that hear of everyone's presence, not only of the people they name. */
        final Set<LocalSubscription> hearingEveryone = ConcurrentHashMap.newKeySet();
        volatile boolean subscribedUpstream;
        boolean retired;
        /** Why its upstream subscribe failed; the answer for everyone who waited on that attempt. */
        RuntimeException failure;
    }

    public SubscriptionMultiplexer(Channels channels, int queueCapacity) {
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queueCapacity must be at least 1, not " + queueCapacity);
        }
        this.queueCapacity = queueCapacity;
        this.upstream = Objects.requireNonNull(channels, "channels").connect(new FanOut());
    }

    /**
     * A new local subscription to {@code topics}, every one of them subscribed upstream before
     * this returns; {@code intake} decides what each arriving event puts in its queue.
     */
    public LocalSubscription subscribe(Collection<? extends Topic> topics, LocalSubscription.Intake intake) {
        if (closed) {
            throw new IllegalStateException("the multiplexer is closed");
        }
        LocalSubscription subscription = new LocalSubscription(this, queueCapacity, intake);
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
        return subscribe(topics, arriving -> arriving);
    }

    /** How many topics are subscribed upstream right now: one per topic, however many listen. */
    public int upstreamSubscriptions() {
        return (int) topics.values().stream().filter(state -> state.subscribedUpstream).count();
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
        closing.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            closing.writeLock().unlock();
        }
        subscriptions.forEach(subscription -> subscription.end(CloseReason.SHUTDOWN));
        subscriptions.clear();
        topics.clear();
        presenceListeners.clear();
        upstream.close();
    }

    void attach(LocalSubscription subscription, Topic topic) {
        closing.readLock().lock();
        try {
            if (closed) {
                throw new IllegalStateException("the multiplexer is closed");
            }
            while (true) {
                TopicState state = topics.computeIfAbsent(topic, absent -> new TopicState());
                state.lock.lock();
                try {
                    if (state.failure != null) {
                        // Waited behind an attempt that failed: that is this one's answer too.
                        // A storm of subscribers to a topic costs the store one attempt, not one each.
                        throw state.failure;
                    }
                    if (state.retired) {
                        continue; // its unsubscribe is confirmed now: start afresh
                    }
                    if (!state.subscribedUpstream) {
                        // Subscribe upstream before anyone is listed: once attach returns,
                        // anything published to the topic reaches this subscriber.
                        subscribeUpstream(topic, state);
                    }
                    state.subscribers.add(subscription);
                    if (!subscription.choosesWhosePresence()) {
                        state.hearingEveryone.add(subscription);
                    }
                    return;
                } finally {
                    state.lock.unlock();
                }
            }
        } finally {
            closing.readLock().unlock();
        }
    }

    /** A state that could not subscribe has no subscribers yet: it leaves, and the next attach tries again. */
    private void subscribeUpstream(Topic topic, TopicState state) {
        try {
            upstream.subscribe(topic);
            state.subscribedUpstream = true;
        } catch (RuntimeException e) {
            state.retired = true;
            state.failure = e;
            topics.remove(topic, state);
            throw e;
        }
    }

    void detach(LocalSubscription subscription, Topic topic) {
        closing.readLock().lock();
        try {
            TopicState state = topics.get(topic);
            if (state == null || closed) {
                return;
            }
            state.lock.lock();
            try {
                state.hearingEveryone.remove(subscription);
                if (state.retired || !state.subscribers.remove(subscription) || !state.subscribers.isEmpty()) {
                    return;
                }
                state.retired = true;
                try {
                    upstream.unsubscribe(topic);
                } catch (StoreUnavailableException away) {
                    // Closing must not fail because the store is away: no one here listens to
                    // the topic any more, so whatever the store still sends on it is dropped on
                    // arrival, and the next subscriber's attach starts afresh.
                } finally {
                    state.subscribedUpstream = false;
                    topics.remove(topic, state);
                }
            } finally {
                state.lock.unlock();
            }
        } finally {
            closing.readLock().unlock();
        }
    }

    void forget(LocalSubscription subscription) {
        subscriptions.remove(subscription);
    }

    /** The set is made, added to and dropped when empty inside the map's own compute, so no add is lost. */
    void listen(UserId person, LocalSubscription subscription) {
        presenceListeners.compute(person, (who, listeners) -> {
            Set<LocalSubscription> named = listeners == null ? ConcurrentHashMap.newKeySet() : listeners;
            named.add(subscription);
            return named;
        });
    }

    void stopListening(UserId person, LocalSubscription subscription) {
        presenceListeners.computeIfPresent(person, (who, listeners) -> {
            listeners.remove(subscription);
            return listeners.isEmpty() ? null : listeners;
        });
    }

    /** How many subscribers named this person: the offers one change of their presence costs. */
    int listenersOf(UserId person) {
        return presenceListeners.getOrDefault(person, Set.of()).size();
    }

    /** How many people someone listens for. */
    int peopleListenedFor() {
        return presenceListeners.size();
    }

    boolean listens(UserId person, LocalSubscription subscription) {
        Set<LocalSubscription> listeners = presenceListeners.get(person);
        return listeners != null && listeners.contains(subscription);
    }

    /** Receives from upstream on the adapter's delivery thread, which must never block. */
    private final class FanOut implements Channels.Receiver {

        @Override
        public void onEvent(Topic via, Channel channel, LiveEvent event) {
            TopicState state = topics.get(via);
            if (state == null) {
                return;
            }
            LiveSignal.Event signal = new LiveSignal.Event(channel, event);
            if (event instanceof LiveEvent.PresenceChanged changed) {
                for (LocalSubscription subscriber : state.hearingEveryone) {
                    subscriber.offer(signal);
                }
                // Found by the person, and offered only if they follow the topic it came on.
                for (LocalSubscription listener : presenceListeners.getOrDefault(changed.user(), Set.of())) {
                    if (state.subscribers.contains(listener)) {
                        listener.offer(signal);
                    }
                }
                return;
            }
            for (LocalSubscription subscriber : state.subscribers) {
                subscriber.offer(signal);
            }
        }

        @Override
        public void onResubscribed() {
            LiveSignal resync = new LiveSignal.Resync();
            for (LocalSubscription subscriber : subscriptions) {
                subscriber.offer(resync);
            }
        }
    }
}
