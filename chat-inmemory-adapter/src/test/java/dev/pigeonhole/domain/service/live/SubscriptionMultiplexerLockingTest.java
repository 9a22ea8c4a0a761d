package dev.pigeonhole.domain.service.live;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Subscribing holds a lock per topic across its upstream round trip, not one for the whole
 * server: a store that is slow to confirm one topic holds up no one subscribing another. The
 * slow topic here waits on a latch the test opens; nothing is timed.
 */
@Timeout(60)
class SubscriptionMultiplexerLockingTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Channel slow = Channel.ofChat(ChatId.of("slow"));
    private final Channel quick = Channel.ofChat(ChatId.of("quick"));
    private final InMemoryChannels channels = new InMemoryChannels();
    private final HeldChannels held = new HeldChannels(channels, slow);
    private final SubscriptionMultiplexer multiplexer = new SubscriptionMultiplexer(held, 16);

    @AfterEach
    void close() {
        held.release.countDown();
        multiplexer.close();
    }

    @Test
    void a_topic_whose_subscribe_is_slow_holds_up_no_other_topic() throws Exception {
        CompletableFuture<LocalSubscription> first = CompletableFuture.supplyAsync(() -> multiplexer.subscribe(List.of(slow)));
        held.entered.await();

        LocalSubscription other = multiplexer.subscribe(List.of(quick));
        channels.publish(quick, posted(quick, "quick"));

        assertThat(other.next(WAIT)).contains(new LiveSignal.Event(quick, posted(quick, "quick")));
        assertThat(first).as("still waiting for the store").isNotDone();

        held.release.countDown();
        LocalSubscription slowOne = first.get();
        channels.publish(slow, posted(slow, "at last"));
        assertThat(slowOne.next(WAIT)).contains(new LiveSignal.Event(slow, posted(slow, "at last")));
    }

    @Test
    void a_second_subscriber_of_the_slow_topic_waits_for_the_first_and_shares_its_subscription() throws Exception {
        CompletableFuture<LocalSubscription> first = CompletableFuture.supplyAsync(() -> multiplexer.subscribe(List.of(slow)));
        held.entered.await();
        CompletableFuture<LocalSubscription> second = CompletableFuture.supplyAsync(() -> multiplexer.subscribe(List.of(slow)));

        held.release.countDown();
        LocalSubscription one = first.get();
        LocalSubscription two = second.get();
        channels.publish(slow, posted(slow, "both"));

        assertThat(one.next(WAIT)).contains(new LiveSignal.Event(slow, posted(slow, "both")));
        assertThat(two.next(WAIT)).contains(new LiveSignal.Event(slow, posted(slow, "both")));
        assertThat(held.subscribes.get()).as("one upstream subscribe for the two").isEqualTo(1);
        assertThat(multiplexer.upstreamSubscriptions()).isEqualTo(1);
    }

    @Test
    void subscribers_waiting_behind_a_failed_subscribe_get_its_failure_without_asking_the_store_again()
            throws Exception {
        held.failWith = new StoreUnavailableException("the store is away", null);
        CompletableFuture<LocalSubscription> first = CompletableFuture.supplyAsync(() -> multiplexer.subscribe(List.of(slow)));
        held.entered.await();
        CompletableFuture<LocalSubscription> second = new CompletableFuture<>();
        Thread waiting = Thread.ofPlatform().start(() -> {
            try {
                second.complete(multiplexer.subscribe(List.of(slow)));
            } catch (RuntimeException e) {
                second.completeExceptionally(e);
            }
        });
        // Polled, not slept: the second subscriber is parked on the topic's lock.
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (waiting.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(waiting.getState()).isEqualTo(Thread.State.WAITING);

        held.release.countDown();

        assertThat(first).failsWithin(WAIT).withThrowableThat().withCauseInstanceOf(StoreUnavailableException.class);
        assertThat(second).failsWithin(WAIT).withThrowableThat().withCauseInstanceOf(StoreUnavailableException.class);
        assertThat(held.subscribes.get()).as("one attempt answers both").isEqualTo(1);
        assertThat(multiplexer.upstreamSubscriptions()).isZero();

        held.failWith = null;
        LocalSubscription later = multiplexer.subscribe(List.of(slow));
        assertThat(held.subscribes.get()).as("a later subscriber tries again").isEqualTo(2);
        assertThat(later.isOpen()).isTrue();
    }

    private static LiveEvent posted(Channel channel, String body) {
        return new LiveEvent.MessagePosted(channel.chat().orElseThrow(),
                new Message(1, Instant.EPOCH, UserId.of("alice"), body));
    }

    /** The in-memory channels, with one topic's subscribe held until the test releases it. */
    private static final class HeldChannels implements Channels {

        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger subscribes = new AtomicInteger();
        /** What the held topic's subscribe fails with once released; null to succeed. */
        volatile RuntimeException failWith;
        private final Channels real;
        private final Topic heldTopic;

        HeldChannels(Channels real, Topic heldTopic) {
            this.real = real;
            this.heldTopic = heldTopic;
        }

        @Override
        public void publish(Channel channel, LiveEvent event) {
            real.publish(channel, event);
        }

        @Override
        public Connection connect(Receiver receiver) {
            Connection connection = real.connect(receiver);
            return new Connection() {
                @Override
                public void subscribe(Topic topic) {
                    if (topic.equals(heldTopic)) {
                        subscribes.incrementAndGet();
                        entered.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(e);
                        }
                        if (failWith != null) {
                            throw failWith;
                        }
                    }
                    connection.subscribe(topic);
                }

                @Override
                public void unsubscribe(Topic topic) {
                    connection.unsubscribe(topic);
                }

                @Override
                public void close() {
                    connection.close();
                }
            };
        }
    }
}
