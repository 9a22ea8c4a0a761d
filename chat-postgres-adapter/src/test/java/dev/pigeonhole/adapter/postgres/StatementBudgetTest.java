package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.testsupport.postgres.PostgresServer;
import dev.pigeonhole.testsupport.postgres.PostgresServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import static dev.pigeonhole.adapter.postgres.PostgresTestSettings.newSettings;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each chat operation costs PostgreSQL, in statements and round trips, beside the Redis
 * adapter's round-trip budget: counted on the JDBC calls themselves, so a change that adds a
 * statement to a hot path fails here. A statement (or a batch) is one round trip, and so is the
 * commit; PgJDBC sends {@code BEGIN} along with the first statement. The announcement's
 * {@code NOTIFY} is counted too (here a statement of its own).
 */
class StatementBudgetTest {

    private static final Instant AT = Instant.parse("2026-11-25T10:00:00Z");

    private final AtomicInteger statements = new AtomicInteger();
    private final AtomicInteger commits = new AtomicInteger();
    private PostgresStore store;
    private PostgresChats chats;

    @BeforeEach
    void open() {
        PostgresServer server = PostgresServers.local();
        store = new PostgresStore(newSettings(server));
        PGSimpleDataSource plain = new PGSimpleDataSource();
        plain.setUrl(server.url());
        plain.setUser(store.settings().user());
        plain.setPassword(store.settings().password());
        plain.setCurrentSchema(store.settings().schema());
        chats = new PostgresChats(new Transactions(counting(plain), "counted"), Limits.DEFAULTS, (connection, channel,
                event) -> {
            try (Statement notify = connection.createStatement()) {
                notify.execute("select 1");
            }
        });
    }

    @AfterEach
    void close() {
        store.close();
    }

    record Cost(int statements, int roundTrips) {
    }

    private Cost cost(Runnable operation) {
        int before = statements.get();
        int committedBefore = commits.get();
        operation.run();
        int ran = statements.get() - before;
        return new Cost(ran, ran + commits.get() - committedBefore);
    }

    private static UserId user() {
        return UserId.of("u-" + UUID.randomUUID());
    }

    private static ChatId chat() {
        return ChatId.of("c-" + UUID.randomUUID());
    }

    @Test
    void a_send_costs_a_handful_of_statements_whatever_the_size_of_the_chat() {
        UserId alice = user();
        ChatId small = chat();
        ChatId large = chat();
        chats.open(small, alice, Set.of(user()), "hi", AT);
        Set<UserId> crowd = new java.util.HashSet<>();
        for (int i = 0; i < 500; i++) {
            crowd.add(user());
        }
        chats.open(large, alice, crowd, "hi all", AT);

        Cost inSmall = cost(() -> chats.send(small, alice, "hello", AT));
        Cost inLarge = cost(() -> chats.send(large, alice, "hello", AT));
        Cost keyedAndRated = cost(() -> chats.send(small, alice, "again", AT, Optional.of(IdempotencyKey.of("k")),
                RateLimits.DEFAULTS.send()));

        System.out.printf("[budget] send: %s; in a chat of 501: %s; keyed and rated: %s%n", inSmall, inLarge,
                keyedAndRated);
        assertThat(inLarge).as("only the sender's row is read").isEqualTo(inSmall);
        assertThat(inSmall).as("row, sender, chat, cursor, message, notify").isEqualTo(new Cost(6, 7));
        assertThat(keyedAndRated).as("and the keys and buckets read and written").isEqualTo(new Cost(10, 11));
    }

    @Test
    void pending_and_the_chat_list_cost_the_same_for_one_chat_as_for_a_hundred() {
        UserId bob = user();
        for (int k = 0; k < 100; k++) {
            ChatId chat = chat();
            chats.open(chat, user(), Set.of(bob), "news", AT);
        }
        UserId carol = user();
        chats.open(chat(), user(), Set.of(carol), "news", AT);
        UserId dan = user();
        for (int k = 0; k < 10; k++) {
            chats.open(chat(), user(), Set.of(dan), "news", AT);
        }

        Cost one = cost(() -> chats.pending(carol, 100));
        Cost ten = cost(() -> chats.pending(dan, 100));
        Cost hundred = cost(() -> chats.pending(bob, 100));
        Cost list = cost(() -> chats.chatsOf(bob));

        System.out.printf("[budget] pending at K = 1: %s, K = 10: %s, K = 100: %s; chat list at K = 100: %s%n", one,
                ten, hundred, list);
        assertThat(ten).isEqualTo(one);
        assertThat(hundred).isEqualTo(one);
        assertThat(hundred).isEqualTo(new Cost(2, 3));
        assertThat(list).isEqualTo(new Cost(2, 3));
    }

    @Test
    void a_batch_acknowledge_costs_the_same_for_one_chat_as_for_a_hundred() {
        UserId alice = user();
        UserId bob = user();
        SortedMap<ChatId, Long> upTo = new TreeMap<>();
        Map<Integer, Cost> costs = new TreeMap<>();
        for (int k = 1; k <= 100; k++) {
            ChatId chat = chat();
            chats.open(chat, alice, Set.of(bob), "hi", AT);
            chats.send(chat, alice, "two", AT);
            upTo.put(chat, 1L);
            if (k == 1 || k == 10 || k == 100) {
                // Each chat's cursor moves and each chat drops message 1, which both have read.
                costs.put(k, cost(() -> chats.acknowledge(bob, upTo)));
                upTo.replaceAll((c, up) -> 2L);
                chats.acknowledge(bob, upTo);
                upTo.replaceAll((c, up) -> 1L);
            }
        }

        System.out.printf("[budget] batch acknowledge at K = 1, 10, 100: %s%n", costs.values());
        assertThat(costs.values()).as("rows, members, cursors, windows, trims")
                .containsOnly(new Cost(5, 6));
    }

    @Test
    void acknowledge_join_leave_and_read_cost_what_the_adapter_readme_says() {
        UserId alice = user();
        UserId bob = user();
        ChatId chat = chat();
        chats.open(chat, alice, Set.of(bob), "hi", AT);
        chats.send(chat, alice, "two", AT);

        Cost acknowledge = cost(() -> chats.acknowledge(bob, chat, 2));
        Cost join = cost(() -> chats.join(chat, alice, user()));
        Cost read = cost(() -> chats.read(bob, chat, 0, 10));
        Cost leave = cost(() -> chats.leave(chat, bob));

        System.out.printf("[budget] acknowledge: %s, join: %s, read: %s, leave: %s%n", acknowledge, join, read, leave);
        assertThat(read).as("row, reader, page").isEqualTo(new Cost(3, 4));
        assertThat(acknowledge).as("row, members, window, cursor, trim").isEqualTo(new Cost(5, 6));
        assertThat(join).as("row, members, the newcomer").isEqualTo(new Cost(3, 4));
        assertThat(leave).as("row, members, the leaver").isEqualTo(new Cost(3, 4));
    }

    /** The data source, with every statement run and every commit counted. */
    private DataSource counting(DataSource real) {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{DataSource.class},
                (proxy, method, args) -> {
                    Object answer = invoke(real, method, args);
                    return answer instanceof Connection connection ? counting(connection) : answer;
                });
    }

    private Connection counting(Connection real) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("commit")) {
                        commits.incrementAndGet();
                    }
                    Object answer = invoke(real, method, args);
                    return answer instanceof Statement statement ? counting(statement, method.getReturnType())
                            : answer;
                });
    }

    private Object counting(Statement real, Class<?> type) {
        return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{type}, (proxy, method, args) -> {
            if (method.getName().startsWith("execute")) {
                statements.incrementAndGet();
            }
            return invoke(real, method, args);
        });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
