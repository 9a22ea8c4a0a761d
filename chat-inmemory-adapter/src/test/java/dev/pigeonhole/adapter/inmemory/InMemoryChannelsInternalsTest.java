package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class InMemoryChannelsInternalsTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    /** What a receiver saw, in order: "via channel event-user" or "resubscribed". */
    private final List<String> seen = new CopyOnWriteArrayList<>();

    private final Channel channel = Channel.ofChat(Ids.chat());

    @Test
    void a_connection_queues_at_least_one_event() {
        new InMemoryChannels(1).connect(recorder()).close();

        assertThatThrownBy(() -> new InMemoryChannels(0)).hasMessageContaining("at least 1");
    }

    @Test
    void a_slow_receiver_never_blocks_publishers_and_is_told_to_resync_when_cut_off() throws Exception {
        InMemoryChannels channels = new InMemoryChannels(4);
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Channels.Connection connection = channels.connect(recorder(() -> {
            stuck.countDown();
            waitFor(release);
        }))) {
            connection.subscribe(channel);
            channels.publish(channel, event());
            assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();

            // Far more than the queue holds, while the receiver is stuck in the first event.
            assertTimeoutPreemptively(PATIENCE, () -> {
                for (int i = 0; i < 100; i++) {
                    channels.publish(channel, event());
                }
            });
            release.countDown();
            await().atMost(PATIENCE).until(() -> seen.contains("resubscribed"));

            LiveEvent after = event();
            channels.publish(channel, after);
            await().atMost(PATIENCE).until(() -> seen.getLast().equals(line(channel, after)));
            assertThat(seen.size()).as("the backlog was dropped, not delivered late").isLessThan(10);
        }
    }

    @Test
    void disconnect_all_drops_the_backlog_keeps_subscriptions_and_asks_for_a_resync() throws Exception {
        InMemoryChannels channels = new InMemoryChannels();
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Channels.Connection connection = channels.connect(recorder(() -> {
            stuck.countDown();
            waitFor(release);
        }))) {
            connection.subscribe(channel);
            LiveEvent first = event();
            channels.publish(channel, first);
            assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
            channels.publish(channel, event());
            channels.publish(channel, event());

            channels.disconnectAll();
            release.countDown();

            LiveEvent afterwards = event();
            channels.publish(channel, afterwards);
            await().atMost(PATIENCE).until(() -> seen.contains(line(channel, afterwards)));
            assertThat(seen).as("the two queued events were dropped")
                    .containsExactly(line(channel, first), "resubscribed", line(channel, afterwards));
        }
    }

    @Test
    void no_callback_arrives_after_close_returns() throws Exception {
        InMemoryChannels channels = new InMemoryChannels();
        CountDownLatch inCallback = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean closeReturnedDuringCallback = new AtomicBoolean();
        AtomicBoolean closeReturned = new AtomicBoolean();
        Channels.Connection connection = channels.connect(recorder(() -> {
            inCallback.countDown();
            waitFor(release);
            closeReturnedDuringCallback.set(closeReturned.get());
        }));
        connection.subscribe(channel);
        channels.publish(channel, event());
        channels.publish(channel, event());
        assertThat(inCallback.await(10, TimeUnit.SECONDS)).isTrue();

        Thread closer = Thread.ofPlatform().start(() -> {
            connection.close();
            closeReturned.set(true);
        });
        await().atMost(PATIENCE).until(() -> closer.getState() == Thread.State.WAITING);
        release.countDown();
        closer.join(PATIENCE);

        assertThat(closeReturned).isTrue();
        assertThat(closeReturnedDuringCallback).as("close waited for the running callback").isFalse();
        assertThat(seen).as("the second event was never delivered").hasSize(1);
        channels.publish(channel, event());
        assertThat(seen).hasSize(1);
    }

    @Test
    void a_failing_receiver_does_not_stop_deliveries_and_its_failure_is_reported() {
        InMemoryChannels channels = new InMemoryChannels();
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, failure) -> reported.add(failure));
        AtomicBoolean failed = new AtomicBoolean();
        try (Channels.Connection connection = channels.connect(recorder(() -> {
            if (failed.compareAndSet(false, true)) {
                throw new IllegalStateException("receiver bug");
            }
        }))) {
            connection.subscribe(channel);
            channels.publish(channel, event());
            LiveEvent second = event();
            channels.publish(channel, second);

            // Awaitility would otherwise install its own handler while polling and fail on the bug.
            await().dontCatchUncaughtExceptions().atMost(PATIENCE).until(() -> seen.contains(line(channel, second)));
            assertThat(reported).singleElement().extracting(Throwable::getMessage).isEqualTo("receiver bug");
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }

    private Channels.Receiver recorder() {
        return recorder(() -> {
        });
    }

    /** Records every signal, then runs {@code onEvent} (to block or fail) for each event. */
    private Channels.Receiver recorder(Runnable onEvent) {
        return new Channels.Receiver() {
            @Override
            public void onEvent(Topic via, Channel channel, LiveEvent event) {
                seen.add(line(via, event));
                onEvent.run();
            }

            @Override
            public void onResubscribed() {
                seen.add("resubscribed");
            }
        };
    }

    private static String line(Topic via, LiveEvent event) {
        return via + " " + ((LiveEvent.PresenceChanged) event).user();
    }

    /** An event told apart from others by its random user. */
    private static LiveEvent event() {
        return new LiveEvent.PresenceChanged(Ids.user(), true, Instant.EPOCH);
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never released the receiver");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
