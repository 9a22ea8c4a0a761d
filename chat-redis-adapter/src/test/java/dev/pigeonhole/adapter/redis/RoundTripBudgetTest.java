package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.consent.ConsentSnapshot;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.model.mailbox.Sender;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reason this adapter exists, as numbers a test can hold it to: the round trips each hot
 * operation costs, counted at the driver for both clients on a single node and on a cluster, and
 * the scripts behind them counted by the server itself.
 *
 * <p>Redis in Action's send takes a lock and six round trips; its fetch costs 2K+3 for a user in
 * K chats. Here a send is one, pending is two whatever K is, and acknowledging every chat at once
 * one more on a single node (two on a cluster), with a script per node whatever K is.
 */
class RoundTripBudgetTest {

    private static final Instant AT = Instant.parse("2026-11-21T10:00:00Z");

    private StoreFixture store;
    private KeyLayout keys;
    private CountingDriver counting;
    private RedisTarget target;

    static Stream<Arguments> configurations() {
        // Every client, on a single node and on a cluster.
        return Stream.of(false, true).flatMap(cluster -> Stream.of(RedisClientKind.values())
                .map(client -> Arguments.of(client, cluster)));
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    @ParameterizedTest(name = "{0}, cluster: {1}")
    @MethodSource("configurations")
    void a_send_is_one_round_trip_and_one_script(RedisClientKind client, boolean cluster) {
        open(client, cluster);
        UserId alice = user();
        ChatId chat = chatWith(alice, user());
        store.chats().send(chat, alice, "warm-up", AT); // the first call may have to load the script

        assertThat(cost(() -> store.chats().send(chat, alice, "hello", AT)))
                .isEqualTo(new Cost(1, 1));
        assertThat(cost(() -> store.chats().send(chat, alice, "held to a rate, under a key", AT,
                Optional.of(IdempotencyKey.of("k")), RateLimits.DEFAULTS.send())))
                .as("the rate limit and the key are taken in the same script").isEqualTo(new Cost(1, 1));
    }

    @ParameterizedTest(name = "{0}, cluster: {1}")
    @MethodSource("configurations")
    void pending_is_two_round_trips_whatever_the_number_of_chats(RedisClientKind client, boolean cluster) {
        open(client, cluster);
        UserId alice = user();
        UserId bob = user();
        List<ChatId> chats = new ArrayList<>();
        for (int k = 1; k <= 100; k++) {
            ChatId chat = chatWith(alice, bob);
            store.chats().send(chat, bob, "news " + k, AT);
            chats.add(chat);
            if (k == 1 || k == 10 || k == 100) {
                store.chats().pending(alice, 1000); // warm-up at this size
                List<PendingChat> seen = new ArrayList<>();
                Cost cost = cost(() -> seen.addAll(store.chats().pending(alice, 1000)));

                assertThat(seen).as("pending in %d chats", k).hasSize(k)
                        .allSatisfy(p -> assertThat(p.unread()).isEqualTo(1));
                // One read of the user's index, then one script for every chat a node holds, all
                // nodes' in flight at once.
                assertThat(cost).as("pending in %d chats", k).isEqualTo(new Cost(2, 1 + nodesOf(chats)));
            }
        }
    }

    @ParameterizedTest(name = "{0}, cluster: {1}")
    @MethodSource("configurations")
    void a_batch_acknowledge_costs_the_same_whatever_the_number_of_chats(RedisClientKind client, boolean cluster) {
        open(client, cluster);
        UserId alice = user();
        UserId bob = user();
        SortedMap<ChatId, Long> upTo = new TreeMap<>();
        for (int k = 1; k <= 100; k++) {
            ChatId chat = chatWith(alice, bob);
            store.chats().send(chat, bob, "news " + k, AT);
            upTo.put(chat, 1L);
            if (k == 1 || k == 10 || k == 100) {
                store.chats().acknowledge(alice, upTo); // warm-up at this size
                upTo.replaceAll((c, up) -> 2L);
                Cost cost = cost(() -> store.chats().acknowledge(alice, upTo));

                assertThat(store.chats().pending(alice, 10)).as("acknowledged in %d chats", k)
                        .allSatisfy(p -> assertThat(p.unread()).isZero());
                // A node moves every chat it holds in one script. Over several nodes of a cluster,
                // every node's chats are checked, then moved: two round trips, a script per node each.
                long nodes = nodesOf(upTo.keySet());
                Cost expected = nodes == 1 ? new Cost(1, 1) : new Cost(2, 2 * nodes);
                assertThat(cost).as("a batch acknowledge of %d chats", k).isEqualTo(expected);
                upTo.replaceAll((c, up) -> 1L);
            }
        }
    }

    @ParameterizedTest(name = "{0}, cluster: {1}")
    @MethodSource("configurations")
    void acknowledge_read_and_list_cost_what_they_promise(RedisClientKind client, boolean cluster) {
        open(client, cluster);
        UserId alice = user();
        UserId bob = user();
        ChatId chat = chatWith(alice, bob);
        store.chats().send(chat, bob, "one", AT);
        store.chats().send(chat, bob, "two", AT);
        store.chats().acknowledge(alice, chat, 1);
        store.chats().read(alice, chat, 0, 10);
        store.chats().chatsOf(alice);

        assertThat(cost(() -> store.chats().acknowledge(alice, chat, 2))).as("acknowledge").isEqualTo(new Cost(1, 1));
        assertThat(cost(() -> store.chats().read(alice, chat, 0, 10))).as("read").isEqualTo(new Cost(1, 1));
        assertThat(cost(() -> store.chats().chatsOf(alice))).as("chat list").isEqualTo(new Cost(2, 2));
    }

    @ParameterizedTest(name = "{0}, cluster: {1}")
    @MethodSource("configurations")
    void mailbox_presence_and_quota_calls_are_one_round_trip_each(RedisClientKind client, boolean cluster) {
        open(client, cluster);
        UserId alice = user();
        UserId sender = user();
        store.mailboxes().deliver(alice, sender, "ping", AT);
        store.mailboxes().read(alice, 10);
        store.mailboxes().acknowledge(alice, 1);
        store.presence().touch(alice, AT);

        assertThat(cost(() -> store.mailboxes().deliver(alice, sender, "ping", AT))).as("deliver, announced")
                .isEqualTo(new Cost(1, 1));
        assertThat(cost(() -> store.mailboxes().read(alice, 10))).as("read").isEqualTo(new Cost(1, 1));
        assertThat(cost(() -> store.mailboxes().acknowledge(alice, 2))).as("acknowledge").isEqualTo(new Cost(1, 1));
        assertThat(cost(() -> store.presence().touch(alice, AT.plusSeconds(1)))).as("touch").isEqualTo(new Cost(1, 1));
        store.quotas().take(alice, RateLimits.Write.CREATE, RateLimits.DEFAULTS.create());
        assertThat(cost(() -> store.quotas().take(alice, RateLimits.Write.CREATE, RateLimits.DEFAULTS.create())))
                .as("a quota's token").isEqualTo(new Cost(1, 1));
    }

    @ParameterizedTest(name = "{0}, cluster: {1}")
    @MethodSource("configurations")
    void what_consent_asks_of_the_store_costs_what_it_promises(RedisClientKind client, boolean cluster) {
        open(client, cluster);
        UserId alice = user();
        UserId bob = user();
        ChatId chat = chatWith(alice, bob);
        store.chats().accept(chat, alice, user(), 1);
        store.chats().summaryOf(alice, chat);
        store.chats().chatIdsOf(alice);
        store.mailboxes().deliver(alice, user(), "from a stranger", AT, Sender.STRANGER);
        store.consents().replace(alice, store.consents().read(alice).version(),
                ConsentSnapshot.empty(alice));

        assertThat(cost(() -> store.chats().accept(chat, alice, user(), 1)))
                .as("accept: the chat's script, then the invitee's index").isEqualTo(new Cost(2, 2));
        assertThat(cost(() -> store.chats().summaryOf(alice, chat))).as("one chat's summary").isEqualTo(new Cost(1, 1));
        assertThat(cost(() -> store.chats().chatIdsOf(alice))).as("a user's chat ids").isEqualTo(new Cost(1, 1));
        assertThat(cost(() -> store.mailboxes().deliver(alice, user(), "another", AT, Sender.STRANGER)))
                .as("a stranger's delivery").isEqualTo(new Cost(1, 1));
        assertThat(cost(() -> store.consents().read(alice))).as("consent read").isEqualTo(new Cost(1, 1));
        assertThat(cost(() -> store.consents().replace(alice, 1, ConsentSnapshot.empty(alice))))
                .as("consent replace").isEqualTo(new Cost(1, 1));
    }

    /** Round trips asked of the driver, and function calls the server saw (FCALL and FCALL_RO together). */
    record Cost(long roundTrips, long scripts) {
    }

    private Cost cost(Runnable operation) {
        long tripsBefore = counting.roundTrips();
        long scriptsBefore = scripts();
        operation.run();
        return new Cost(counting.roundTrips() - tripsBefore, scripts() - scriptsBefore);
    }

    /**
     * Function calls on the server. Other tests' fixtures may share it, but they are not running:
     * the suite runs one test at a time.
     */
    private long scripts() {
        return target.commandCalls("fcall") + target.commandCalls("fcall_ro");
    }

    private void open(RedisClientKind client, boolean cluster) {
        target = cluster ? RedisServers.cluster() : RedisServers.single();
        keys = KeyLayout.tagged(target.newPrefix());
        store = RedisStoreFixture.open(target, client, keys, Limits.DEFAULTS, driver -> {
            counting = new CountingDriver(driver);
            return counting;
        });
    }

    /** How many nodes hold these chats: 1 on a single node, up to 3 on the test cluster. */
    private long nodesOf(Collection<ChatId> chats) {
        return chats.stream().map(chat -> counting.nodeOf(keys.chat(chat).members())).distinct().count();
    }

    private ChatId chatWith(UserId creator, UserId other) {
        ChatId chat = store.chats().newChatId();
        store.chats().open(chat, creator, Set.of(other), "hello", AT);
        return chat;
    }

    private static UserId user() {
        return UserId.of("u" + UUID.randomUUID().toString().substring(0, 8));
    }
}
