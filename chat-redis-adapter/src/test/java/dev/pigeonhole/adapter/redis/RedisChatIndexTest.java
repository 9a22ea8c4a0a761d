package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A user's index of chats lives in another slot than the chats, so open, join and leave update it
 * in a second step. These tests break that step the ways a crash or a slow network would, by hand
 * on the real Redis, and watch it mended: by the operation tried again, and by the sweep; and they
 * hold a leave's step back past a join, which must not be undone by it.
 */
class RedisChatIndexTest {

    private static final Instant AT = Instant.parse("2026-11-21T10:00:00Z");
    private static final RedisFunction REMOVE_BY_HAND =
            InlineFunction.of("test_index_remove_by_hand", "return redis.call('ZREM', KEYS[1], ARGV[1])");
    private static final RedisFunction ADD_BY_HAND =
            InlineFunction.of("test_index_add_by_hand", "return redis.call('ZADD', KEYS[1], 0, ARGV[1])");

    private static final RedisFunction SCORE =
            InlineFunction.of("test_index_score", "return redis.call('ZSCORE', KEYS[1], ARGV[1])");

    private StoreFixture store;
    private KeyLayout keys;
    private LateIndexRemoves driver;
    private RedisIndexSweep sweep;

    private final UserId alice = user();
    private final UserId bob = user();
    private final UserId carol = user();

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
    void a_join_tried_again_lists_the_chat_its_lost_index_step_left_out(RedisClientKind client, boolean cluster) {
        open(client, cluster, KeyLayout::tagged);
        ChatId chat = chatOfAliceAndBob();
        store.chats().join(chat, alice, carol);
        unlistByHand(carol, chat);
        assertThat(chatsOf(carol)).isEmpty();

        store.chats().join(chat, alice, carol);

        assertThat(chatsOf(carol)).containsExactly(chat);
    }

    @ParameterizedTest(name = "{0}, cluster: {1}")
    @MethodSource("configurations")
    void the_sweep_of_a_co_member_lists_the_chat_a_lost_index_step_left_out(RedisClientKind client, boolean cluster) {
        open(client, cluster, KeyLayout::tagged);
        ChatId chat = chatOfAliceAndBob();
        store.chats().join(chat, alice, carol);
        unlistByHand(carol, chat);

        // Carol is not among those swept: the chat is found through Alice's index.
        assertThat(sweep.sweep(Set.of(alice))).contains(new IndexRepair(1, 0));

        assertThat(chatsOf(carol)).containsExactly(chat);
        assertThat(sweep.sweep(Set.of(alice, carol))).as("nothing left to mend").contains(new IndexRepair(0, 0));
    }

    @ParameterizedTest(name = "{0}, cluster: {1}")
    @MethodSource("configurations")
    void the_sweep_drops_a_chat_the_user_left_that_a_lost_index_step_left_listed(RedisClientKind client,
                                                                                  boolean cluster) {
        open(client, cluster, KeyLayout::tagged);
        ChatId chat = chatOfAliceAndBob();
        ChatId gone = chatOfAliceAndBob();
        store.chats().leave(chat, bob);
        store.chats().leave(gone, bob);
        store.chats().leave(gone, alice);
        listByHand(bob, chat);
        listByHand(bob, gone);

        assertThat(sweep.sweep(Set.of(bob))).contains(new IndexRepair(0, 2));

        assertThat(listed(bob, chat)).isFalse();
        assertThat(listed(bob, gone)).isFalse();
        assertThat(chatsOf(alice)).containsExactly(chat);
    }

    @ParameterizedTest(name = "{0}, cluster: {1}")
    @MethodSource("configurations")
    void a_leave_tried_again_drops_the_chat_its_lost_index_step_left_listed(RedisClientKind client, boolean cluster) {
        open(client, cluster, KeyLayout::tagged);
        ChatId chat = chatOfAliceAndBob();
        store.chats().leave(chat, bob);
        listByHand(bob, chat);

        assertThatThrownBy(() -> store.chats().leave(chat, bob)).isInstanceOf(UnknownChatException.class);

        assertThat(listed(bob, chat)).isFalse();
    }

    @ParameterizedTest(name = "{0}, cluster: {1}")
    @MethodSource("configurations")
    void a_leaves_late_index_step_does_not_drop_the_chat_once_the_user_is_back(RedisClientKind client,
                                                                                boolean cluster) throws Exception {
        open(client, cluster, KeyLayout::tagged);
        ChatId chat = chatOfAliceAndBob();
        store.chats().join(chat, alice, carol);

        driver.holdTheNext();
        CompletableFuture<?> leaving = CompletableFuture.runAsync(() -> store.chats().leave(chat, carol));
        driver.awaitHeld();
        store.chats().join(chat, alice, carol);
        driver.letGo();
        leaving.get();

        assertThat(chatsOf(carol)).containsExactly(chat);
        assertThat(listed(carol, chat)).isTrue();
    }

    /** The book's index, seen:<user>, holds cursors and is kept by the chat's own script: no second step to lose. */
    @Test
    void in_the_book_layout_the_chat_scripts_keep_the_index_with_no_step_of_their_own() {
        open(RedisClientKind.LETTUCE, false, KeyLayout::book);
        ChatId chat = chatOfAliceAndBob();
        store.chats().join(chat, alice, carol);
        assertThat(chatsOf(carol)).containsExactly(chat);

        store.chats().leave(chat, carol);
        store.chats().join(chat, alice, carol);
        store.chats().leave(chat, bob);

        assertThat(driver.removesSeen()).isZero();
        assertThat(chatsOf(carol)).containsExactly(chat);
        assertThat(chatsOf(bob)).isEmpty();
        assertThat(sweep.sweep(Set.of(alice, bob, carol))).contains(new IndexRepair(0, 0));
    }

    private void open(RedisClientKind client, boolean cluster, Function<String, KeyLayout> layout) {
        RedisTarget target = cluster ? RedisServers.cluster() : RedisServers.single();
        keys = layout.apply(target.newPrefix());
        store = RedisStoreFixture.open(target, client, keys, Limits.DEFAULTS, real -> {
            driver = new LateIndexRemoves(real);
            return driver;
        });
        sweep = new RedisIndexSweep(driver, keys, store.lock());
    }

    private ChatId chatOfAliceAndBob() {
        ChatId chat = store.chats().newChatId();
        store.chats().open(chat, alice, Set.of(bob), "hello", AT);
        return chat;
    }

    private List<ChatId> chatsOf(UserId user) {
        return store.chats().chatsOf(user).stream().map(ChatSummary::chat).toList();
    }

    private void unlistByHand(UserId user, ChatId chat) {
        byHand(REMOVE_BY_HAND, user, chat);
    }

    private void listByHand(UserId user, ChatId chat) {
        byHand(ADD_BY_HAND, user, chat);
    }

    private boolean listed(UserId user, ChatId chat) {
        return driver.run(new FunctionCall(SCORE, List.of(keys.chatsOf(user)), List.of(chat.value())))
                != null;
    }

    private void byHand(RedisFunction script, UserId user, ChatId chat) {
        driver.run(new FunctionCall(script, List.of(keys.chatsOf(user)), List.of(chat.value())));
    }

    private static UserId user() {
        return UserId.of("u" + UUID.randomUUID().toString().substring(0, 8));
    }
}
