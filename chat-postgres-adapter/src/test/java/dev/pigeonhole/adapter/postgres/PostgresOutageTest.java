package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.testsupport.postgres.LocalPostgres;
import dev.pigeonhole.testsupport.postgres.PostgresServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.pigeonhole.adapter.postgres.PostgresTestSettings.newSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * PostgreSQL stopped in the middle of a stream of sends, then started again: every call fails as
 * the domain's {@link StoreUnavailableException} and within its timeouts, nothing that was
 * answered is lost, and the ids stay gap-free, since they come from the chat's row under its lock
 * and a send that did not commit took none. A live subscriber is told to resync once its
 * listening connection is back, and hears what is sent after. A database that turns read-only (a
 * standby, an operator's freeze) is unavailable for writes in the same way.
 */
class PostgresOutageTest {

    /** Read as the services read it: to the millisecond, as every store keeps a time. */
    private static final InstantSource CLOCK = MillisecondClock.of(Clock.systemUTC());

    private static final int SENDERS = 4;
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @Test
    @Timeout(120)
    void a_database_stopped_mid_send_loses_nothing_answered_and_leaves_no_gap() throws Exception {
        try (LocalPostgres own = PostgresServers.own();
             PostgresStore store = new PostgresStore(newSettings(own.server())
                     .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2)))) {
            PostgresChats chats = new PostgresChats(store, Limits.DEFAULTS);
            UserId alice = UserId.of("alice");
            ChatId chat = ChatId.of("outage");
            chats.open(chat, alice, Set.of(), "before", CLOCK.instant());
            CountDownLatch resubscribed = new CountDownLatch(1);
            CountDownLatch heardAfter = new CountDownLatch(1);
            Channels.Connection live = new PostgresChannels(store).connect(new Channels.Receiver() {
                @Override
                public void onEvent(Topic via, Channel channel, LiveEvent event) {
                    if (event instanceof LiveEvent.MessagePosted posted && posted.message().body().equals("after")) {
                        heardAfter.countDown();
                    }
                }

                @Override
                public void onResubscribed() {
                    resubscribed.countDown();
                }
            });
            live.subscribe(Channel.ofChat(chat));

            Map<Long, String> answered = new ConcurrentHashMap<>();
            AtomicInteger refusedTyped = new AtomicInteger();
            List<Throwable> untyped = java.util.Collections.synchronizedList(new ArrayList<>());
            CountDownLatch enoughSent = new CountDownLatch(40);
            CountDownLatch everyoneRefused = new CountDownLatch(SENDERS);
            List<Future<?>> senders = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(SENDERS)) {
                for (int s = 0; s < SENDERS; s++) {
                    int sender = s;
                    senders.add(pool.submit(() -> {
                        boolean refused = false;
                        for (int n = 0; !refused; n++) {
                            String body = "sender " + sender + " message " + n;
                            long started = System.nanoTime();
                            try {
                                Message sent = chats.send(chat, alice, body, CLOCK.instant());
                                answered.put(sent.id(), body);
                                enoughSent.countDown();
                            } catch (StoreUnavailableException e) {
                                assertThat(Duration.ofNanos(System.nanoTime() - started))
                                        .as("a refusal comes within the timeouts").isLessThan(PATIENCE);
                                refusedTyped.incrementAndGet();
                                refused = true;
                                everyoneRefused.countDown();
                            } catch (RuntimeException e) {
                                untyped.add(e);
                                refused = true;
                                everyoneRefused.countDown();
                            }
                        }
                        return null;
                    }));
                }
                enoughSent.await();
                own.takeDown();
                everyoneRefused.await();
                for (Future<?> sender : senders) {
                    sender.get();
                }
            }
            assertThat(untyped).as("every failure is the domain's, none a driver's").isEmpty();
            assertThat(refusedTyped.get()).isEqualTo(SENDERS);

            own.bringBack();
            assertThat(resubscribed.await(30, TimeUnit.SECONDS)).as("the subscriber is told to resync").isTrue();
            await().atMost(Duration.ofSeconds(30)).ignoreException(StoreUnavailableException.class)
                    .until(() -> chats.send(chat, alice, "after", CLOCK.instant()) != null);
            assertThat(heardAfter.await(10, TimeUnit.SECONDS)).as("and hears what is sent after").isTrue();
            live.close();

            List<Message> all = chats.read(alice, chat, 0, 10_000).messages();
            List<Long> ids = all.stream().map(Message::id).toList();
            System.out.printf("[outage] %d sends answered before the stop, %d messages after the restart%n",
                    answered.size(), all.size());
            for (int i = 0; i < ids.size(); i++) {
                assertThat(ids.get(i)).as("ids run 1, 2, 3… with no gap").isEqualTo(i + 1L);
            }
            answered.forEach((id, body) -> assertThat(all.get((int) (id - 1)).body())
                    .as("message %d, answered before the stop", id).isEqualTo(body));
            assertThat(all.getLast().body()).isEqualTo("after");
        }
    }

    @Test
    @Timeout(120)
    void a_database_turned_read_only_refuses_every_write_as_unavailable_and_changes_nothing() throws Exception {
        try (LocalPostgres own = PostgresServers.own();
             PostgresStore store = new PostgresStore(newSettings(own.server()))) {
            PostgresChats chats = new PostgresChats(store, Limits.DEFAULTS);
            UserId alice = UserId.of("alice");
            ChatId chat = ChatId.of("standby");
            chats.open(chat, alice, Set.of(), "before", CLOCK.instant());

            // What a standby, or a database an operator froze, answers: every new transaction is read-only.
            try (Connection admin = PlainJdbc.connect(own.server(), "public");
                 Statement statement = admin.createStatement()) {
                statement.execute("alter system set default_transaction_read_only = on");
                statement.execute("select pg_reload_conf()");
            }
            // The pool's open connections take the setting at their next transaction, after the reload is read.
            await().atMost(PATIENCE).until(() -> {
                try {
                    chats.send(chat, alice, "while read-only", CLOCK.instant());
                    return false;
                } catch (StoreUnavailableException refused) {
                    return true;
                }
            });

            long lastId = chats.read(alice, chat, 0, 10).lastId();
            assertThatThrownBy(() -> chats.send(chat, alice, "again", CLOCK.instant()))
                    .isInstanceOf(StoreUnavailableException.class).hasMessageNotContaining("SQLSTATE");
            assertThat(chats.read(alice, chat, 0, 10).lastId()).as("reads still work; the refusal stored"
                    + " nothing").isEqualTo(lastId);
        }
    }
}
