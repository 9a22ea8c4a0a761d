package dev.pigeonhole.domain.service.live;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.LiveSignal.CloseReason;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.model.live.Topic;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One local subscriber of a {@link SubscriptionMultiplexer}: its topics and its bounded queue.
 * The multiplexer's delivery thread fills the queue; the subscriber's own thread drains it.
 *
 * <p>Detaching from the multiplexer may call the store, which the delivery thread must never
 * wait for. So a subscriber the delivery thread cuts off as slow is only marked; the subscriber's
 * own thread detaches it when it next reads or closes, and no thread is started for it.
 */
public final class LocalSubscription implements AutoCloseable {

    private final SubscriptionMultiplexer multiplexer;
    private final BlockingQueue<LiveSignal> queue;
    private final Intake intake;
    private final Set<Topic> topics = ConcurrentHashMap.newKeySet();
    private final AtomicReference<LiveSignal.Closed> closed = new AtomicReference<>();
    private final AtomicBoolean detached = new AtomicBoolean();

    /**
     * What an arriving event puts in one subscriber's queue, decided on the delivery thread before
     * it takes any room there: so news the subscriber does not want, however much of it comes,
     * can never fill its queue and cut it off.
     */
    @FunctionalInterface
    public interface Intake {

        /**
         * The signal to queue: the event itself, another in its stead, or null for nothing. Runs on
         * the delivery thread: it must not block, and never calls a store.
         */
        LiveSignal admit(LiveSignal.Event arriving);

        /**
         * True if the subscriber hears only of the presence of the people it names through
         * {@link LocalSubscription#hearPresenceOf}; false if of everyone's.
         */
        default boolean choosesWhosePresence() {
            return false;
        }

        /**
         * The subscription has left the multiplexer: the intake takes back the people it named,
         * and names no one from now on. Runs once, on whichever thread closed it.
         */
        default void detached() {
        }
    }

    LocalSubscription(SubscriptionMultiplexer multiplexer, int capacity, Intake intake) {
        this.multiplexer = multiplexer;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.intake = Objects.requireNonNull(intake, "intake");
    }

    /** Adds a topic; subscribed upstream before this returns. */
    public void add(Topic topic) {
        Objects.requireNonNull(topic, "topic");
        if (!isOpen() || !topics.add(topic)) {
            return;
        }
        try {
            multiplexer.attach(this, topic);
        } catch (RuntimeException e) {
            topics.remove(topic);
            throw e;
        }
        if (!isOpen()) {
            // Closed while attaching: the close already detached what it saw, so undo this one.
            multiplexer.detach(this, topic);
        }
    }

    public void remove(Topic topic) {
        if (topics.remove(topic)) {
            multiplexer.detach(this, topic);
        }
    }

    public boolean follows(Topic topic) {
        return topics.contains(topic);
    }

    /** From now on, this person's presence is offered to an intake that {@linkplain Intake#choosesWhosePresence chooses}. */
    void hearPresenceOf(UserId person) {
        multiplexer.listen(person, this);
    }

    void stopHearingPresenceOf(UserId person) {
        multiplexer.stopListening(person, this);
    }

    boolean hearsPresenceOf(UserId person) {
        return multiplexer.listens(person, this);
    }

    boolean choosesWhosePresence() {
        return intake.choosesWhosePresence();
    }

    public Set<Topic> topics() {
        return Set.copyOf(topics);
    }

    /**
     * The next signal, waiting up to {@code timeout}. Once closed, always the {@link LiveSignal.Closed}
     * signal: whatever was still queued is dropped, since the subscriber resyncs by pulling anyway.
     */
    public Optional<LiveSignal> next(Duration timeout) throws InterruptedException {
        LiveSignal.Closed end = closed.get();
        if (end == null) {
            LiveSignal signal = queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            end = closed.get();
            if (end == null) {
                return Optional.ofNullable(signal);
            }
        }
        detachAll();
        return Optional.of(end);
    }

    public boolean isOpen() {
        return closed.get() == null;
    }

    /** Why it ended, if it has. */
    public Optional<CloseReason> closeReason() {
        return Optional.ofNullable(closed.get()).map(LiveSignal.Closed::reason);
    }

    @Override
    public void close() {
        end(CloseReason.UNSUBSCRIBED);
        detachAll();
    }

    /** Called on the delivery thread: never blocks. */
    void offer(LiveSignal signal) {
        if (!isOpen()) {
            return;
        }
        LiveSignal admitted = signal instanceof LiveSignal.Event arriving ? intake.admit(arriving) : signal;
        if (admitted != null && !queue.offer(admitted)) {
            end(CloseReason.SLOW);
        }
    }

    /** Marks the end once; wakes a waiting {@link #next} by putting the end in the queue. */
    void end(CloseReason reason) {
        LiveSignal.Closed end = new LiveSignal.Closed(reason);
        if (closed.compareAndSet(null, end)) {
            queue.clear();
            queue.offer(end);
        }
    }

    /** Once, on the subscriber's own thread. */
    private void detachAll() {
        if (!detached.compareAndSet(false, true)) {
            return;
        }
        for (Topic topic : topics) {
            remove(topic);
        }
        intake.detached();
        multiplexer.forget(this);
    }
}
