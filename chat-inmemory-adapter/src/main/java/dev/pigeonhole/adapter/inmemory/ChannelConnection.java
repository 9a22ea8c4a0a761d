package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One {@link Channels.Connection} of {@link InMemoryChannels}: a bounded queue of deliveries and
 * one virtual thread that drains it into the receiver, one call at a time, in publish order.
 *
 * <p>When the queue is full the connection behaves like a Redis client that hit its output buffer
 * limit and was disconnected: the backlog is dropped, subscriptions stay, and the receiver is told
 * {@link Channels.Receiver#onResubscribed()} so its subscribers pull what they missed. Memory stays
 * bounded however slow the receiver is, and publishers never wait.
 */
final class ChannelConnection implements Channels.Connection {

    private record Delivery(Topic via, Channel channel, LiveEvent event) {
    }

    /** Queued to wake the dispatcher when there is nothing to deliver: after a cut-off, or at close. */
    private static final Delivery WAKE_UP = new Delivery(null, null, null);

    private final InMemoryChannels channels;
    private final Channels.Receiver receiver;
    private final BlockingQueue<Delivery> queue;
    private final Thread dispatcher;

    /** Serialises subscribe, unsubscribe and close; publishing never takes it. */
    private final ReentrantLock subscriptionLock = new ReentrantLock();
    private final Set<Topic> topics = new HashSet<>();

    private final AtomicBoolean resubscribed = new AtomicBoolean();
    private volatile boolean closed;

    ChannelConnection(InMemoryChannels channels, Channels.Receiver receiver, int queueCapacity, String name) {
        this.channels = channels;
        this.receiver = receiver;
        // Linked rather than array-backed: no 65 536-slot array up front, and publishers and the
        // dispatcher take separate locks inside it.
        this.queue = new LinkedBlockingQueue<>(queueCapacity);
        this.dispatcher = Thread.ofVirtual().name(name).unstarted(this::dispatch);
    }

    void start() {
        dispatcher.start();
    }

    /** Confirmed at once: in memory there is no server to wait for. */
    @Override
    public void subscribe(Topic topic) {
        Objects.requireNonNull(topic, "topic");
        subscriptionLock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("this connection is closed: connect again to subscribe");
            }
            if (topics.add(topic)) {
                channels.add(topic, this);
            }
        } finally {
            subscriptionLock.unlock();
        }
    }

    @Override
    public void unsubscribe(Topic topic) {
        Objects.requireNonNull(topic, "topic");
        subscriptionLock.lock();
        try {
            if (topics.remove(topic)) {
                channels.remove(topic, this);
            }
        } finally {
            subscriptionLock.unlock();
        }
    }

    /**
     * Drops every subscription and stops the dispatcher. Waits for a callback that is running to
     * return, so that no callback happens after this does; called from inside a callback it
     * cannot wait for itself, and the dispatcher stops as soon as that callback returns. If the
     * caller is interrupted while waiting, it returns early with its interrupt status set.
     */
    @Override
    public void close() {
        subscriptionLock.lock();
        try {
            closed = true;
            for (Topic topic : topics) {
                channels.remove(topic, this);
            }
            topics.clear();
        } finally {
            subscriptionLock.unlock();
        }
        channels.closed(this);
        queue.clear();
        queue.offer(WAKE_UP);
        if (Thread.currentThread() != dispatcher) {
            try {
                dispatcher.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Called by publishers; never blocks. */
    void enqueue(Topic via, Channel channel, LiveEvent event) {
        if (!closed && !queue.offer(new Delivery(via, channel, event))) {
            dropBacklog();
        }
    }

    /**
     * Forgets every waiting delivery and has the receiver told to resync. The order matters: the
     * flag is raised only after the backlog is gone, so the resync the dispatcher reports always
     * comes after every event it replaces was dropped.
     */
    void dropBacklog() {
        queue.clear();
        resubscribed.set(true);
        // If publishers refilled the queue meanwhile this fails, but then the dispatcher has
        // something to take and will see the flag anyway.
        queue.offer(WAKE_UP);
    }

    private void dispatch() {
        try {
            while (!closed) {
                Delivery next = queue.take();
                if (resubscribed.getAndSet(false) && !closed) {
                    call(receiver::onResubscribed);
                }
                if (next != WAKE_UP && !closed) {
                    call(() -> receiver.onEvent(next.via(), next.channel(), next.event()));
                }
            }
        } catch (InterruptedException e) {
            // Nothing here interrupts the dispatcher; if someone else does, stopping is the only
            // sensible answer.
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A failing receiver must not stop deliveries for everyone sharing this connection. There is
     * no logger in this module, so the failure goes where any uncaught exception would: the
     * thread's handler, which the application may have pointed at its log.
     */
    private static void call(Runnable callback) {
        try {
            callback.run();
        } catch (Throwable failure) {
            Thread current = Thread.currentThread();
            current.getUncaughtExceptionHandler().uncaughtException(current, failure);
        }
    }
}
