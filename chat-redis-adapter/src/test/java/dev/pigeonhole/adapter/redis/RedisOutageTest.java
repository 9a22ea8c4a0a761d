package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.testsupport.redis.LocalRedisServer;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Redis going away mid-run, for real: a private redis-server killed like a crash and started
 * again on the same port. Calls fail with the domain's typed error within the timeout, never hang
 * and never leak a client exception; afterwards everything works again by itself, and every send
 * that returned is still there (the server keeps an fsync-always append-only file, as a
 * deployment that promises durability would).
 */
class RedisOutageTest {

    private static final Duration TIMEOUT = Duration.ofMillis(500);
    /** A guard against a hang, far above the timeout; not a timing goal. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(10);
    private static final Instant AT = Instant.parse("2026-11-21T10:00:00Z");

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_crash_is_a_typed_error_and_after_the_restart_no_acknowledged_message_is_lost(RedisClientKind client)
            throws Exception {
        try (LocalRedisServer server = LocalRedisServer.startDurable();
             RedisDriver driver = Drivers.open(client,
                     settings(server.target(), RedisTarget.newClientName()).withTimeouts(TIMEOUT, TIMEOUT))) {
            RedisChats chats = new RedisChats(driver, KeyLayout.tagged(server.target().newPrefix()), Limits.DEFAULTS,
                    PublishMode.of(driver, true));
            UserId alice = UserId.of("alice");
            ChatId chat = chats.newChatId();
            chats.open(chat, alice, Set.of(UserId.of("bob")), "before", AT);

            ConcurrentLinkedQueue<Message> acknowledged = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicBoolean sending = new AtomicBoolean(true);
            AtomicInteger attempts = new AtomicInteger();
            CountDownLatch someSent = new CountDownLatch(20);
            Thread sender = Thread.ofVirtual().start(() -> {
                while (sending.get()) {
                    try {
                        acknowledged.add(chats.send(chat, alice, "m" + attempts.incrementAndGet(), AT));
                        someSent.countDown();
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }
            });

            someSent.await();
            server.stop();
            assertTimeoutPreemptively(HANG_GUARD, () -> {
                assertThatThrownBy(() -> chats.send(chat, alice, "during", AT))
                        .isInstanceOf(StoreUnavailableException.class);
                assertThatThrownBy(() -> chats.pending(alice, 10)).isInstanceOf(StoreUnavailableException.class);
            });
            assertThat(driver.ping()).isFalse();

            server.restart();
            int sentBeforeRestart = acknowledged.size();
            await().atMost(HANG_GUARD).until(() -> acknowledged.size() > sentBeforeRestart + 20);
            sending.set(false);
            sender.join();

            assertThat(failures).as("what the sender saw while Redis was down").isNotEmpty()
                    .allSatisfy(e -> assertThat(e).isInstanceOf(StoreUnavailableException.class));
            List<Message> stored = chats.read(alice, chat, 0, 1000).messages();
            assertThat(stored).as("every send that returned").containsAll(acknowledged);
            assertThat(stored).extracting(Message::id).as("ids stay gap-free across the crash")
                    .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, stored.size()).boxed().toList());
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void subscriptions_come_back_after_a_restart_and_the_receiver_is_told_to_resync(RedisClientKind client) {
        try (LocalRedisServer server = LocalRedisServer.start();
             RedisDriver driver = Drivers.open(client,
                     settings(server.target(), RedisTarget.newClientName()).withTimeouts(TIMEOUT, TIMEOUT))) {
            RedisChannels channels = new RedisChannels(driver, KeyLayout.tagged(server.target().newPrefix()),
                    PublishMode.of(driver, true));
            Channel channel = Channel.ofChat(ChatId.of("outage"));
            ConcurrentLinkedQueue<LiveEvent> received = new ConcurrentLinkedQueue<>();
            AtomicInteger resubscribed = new AtomicInteger();
            try (Channels.Connection connection = channels.connect(new Channels.Receiver() {
                @Override
                public void onEvent(Topic via, Channel on, LiveEvent event) {
                    received.add(event);
                }

                @Override
                public void onResubscribed() {
                    resubscribed.incrementAndGet();
                }
            })) {
                connection.subscribe(channel);

                server.stop();
                server.restart();
                await().atMost(HANG_GUARD).until(() -> resubscribed.get() > 0);
                LiveEvent after = new LiveEvent.PresenceChanged(UserId.of("bob"), true, AT);
                channels.publish(channel, after);

                await().atMost(HANG_GUARD).until(() -> received.contains(after));
            }
        }
    }
}
