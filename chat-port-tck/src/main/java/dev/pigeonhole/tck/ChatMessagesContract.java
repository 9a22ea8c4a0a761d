package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.MessagePage;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.Chats;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The promises of {@link Chats} about messages (docs/DESIGN.md §3, "Group chat"), one test per rule,
 * each in one thread: gap-free ids, members-only send, pending that moves no cursor, forward-only
 * acknowledge, trimming, retention with its gap signal, history, and live announcements.
 * {@link ChatMembershipContract} covers who is in a chat; {@link ChatRacesContract} checks the
 * same rules under concurrency and {@link ChatsDifferentialContract} against the chat aggregate.
 *
 * <p>It stays one class past the length of most: read top to bottom, it is the specification of
 * a message's life in a chat, and split it would read as several half-specifications.
 */
public abstract class ChatMessagesContract extends ChatsContractSupport {

    // ---------------------------------------------------------------- ids and sending

    @Test
    public void message_ids_start_at_one_and_follow_each_other_without_gaps() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();

        Message first = chats.open(chat, alice, Set.of(alice, bob), "hello", at()).message();
        Message second = chats.send(chat, bob, "hi", at());
        Message third = chats.send(chat, alice, "how are you?", at());

        assertThat(List.of(first.id(), second.id(), third.id())).containsExactly(1L, 2L, 3L);
    }

    @Test
    public void every_chat_numbers_its_own_messages_from_one() {
        UserId alice = user("alice");
        ChatId first = chatId();
        ChatId second = chatId();
        chats.open(first, alice, Set.of(alice), "one", at());
        chats.send(first, alice, "two", at());

        Message opening = chats.open(second, alice, Set.of(alice), "elsewhere", at()).message();

        assertThat(opening.id()).isEqualTo(1);
    }

    @Test
    public void a_message_keeps_its_sender_body_and_time() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        Instant openedAt = at();
        Message opening = chats.open(chat, alice, Set.of(alice, bob), "hello", openedAt).message();
        Instant sentAt = at();

        Message reply = chats.send(chat, bob, "hi alice", sentAt);

        assertThat(opening).isEqualTo(new Message(1, openedAt, alice, "hello"));
        assertThat(reply).isEqualTo(new Message(2, sentAt, bob, "hi alice"));
    }

    @Test
    public void only_members_may_send() {
        UserId alice = user("alice");
        UserId mallory = user("mallory");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), "members only", at());

        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.send(chat, mallory, "let me in", at()));
        assertThat(summary(alice, chat).lastId()).as("the rejected send took no id").isEqualTo(1);
        assertThat(chats.chatsOf(mallory)).as("the rejected sender was not added").isEmpty();
    }

    @Test
    public void sending_to_an_unknown_chat_is_rejected() {
        UserId alice = user("alice");
        ChatId chat = chatId();

        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.send(chat, alice, "anyone?", at()));
        assertThat(chats.chatsOf(alice)).as("a send does not create a chat").isEmpty();
    }

    @Test
    public void a_message_is_readable_as_soon_as_send_returns() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "hello", at());

        Message sent = chats.send(chat, alice, "are you there?", at());

        assertThat(chats.read(bob, chat, sent.id() - 1, 10).messages()).containsExactly(sent);
        assertThat(pendingIn(bob, chat).messages()).endsWith(sent);
    }

    @Test
    public void a_send_moves_the_senders_cursor_when_they_had_seen_everything_before() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        Message opening = chats.open(chat, alice, Set.of(alice, bob), "hello", at()).message();
        assertThat(summary(alice, chat).cursor()).as("the creator has seen its opening message").isEqualTo(1);

        Message next = chats.send(chat, alice, "still me", at());

        assertThat(summary(alice, chat).cursor()).isEqualTo(next.id());
        PendingChat own = pendingIn(alice, chat);
        assertThat(own.unread()).as("your own message is never unread").isZero();
        assertThat(own.messages()).isEmpty();
        assertThat(pendingIn(bob, chat).messages()).containsExactly(opening, next);
    }

    @Test
    public void a_send_leaves_the_senders_cursor_when_they_had_unread_messages() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        Message opening = chats.open(chat, alice, Set.of(alice, bob), "hello", at()).message();

        Message reply = chats.send(chat, bob, "hi, haven't read yours yet", at());

        assertThat(summary(bob, chat).cursor()).as("alice's message is still unread, so bob's cursor stays")
                .isZero();
        PendingChat pending = pendingIn(bob, chat);
        assertThat(pending.messages()).as("own messages above the cursor are pending too")
                .containsExactly(opening, reply);
        assertThat(pending.unread()).isEqualTo(2);
    }

    // ---------------------------------------------------------------- pending

    @Test
    public void pending_returns_the_messages_above_the_cursor_oldest_first_with_the_unread_count() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        Message two = chats.send(chat, alice, "two", at());
        Message three = chats.send(chat, alice, "three", at());
        Message four = chats.send(chat, alice, "four", at());
        chats.acknowledge(bob, chat, 1);

        PendingChat pending = pendingIn(bob, chat);

        assertThat(pending.messages()).containsExactly(two, three, four);
        assertThat(pending.unread()).isEqualTo(3);
        assertThat(pending.gap()).isFalse();
    }

    @Test
    public void pending_covers_every_chat_of_the_user_even_those_with_nothing_unread() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId busy = chatId();
        ChatId quiet = chatId();
        ChatId notBobs = chatId();
        Message hello = chats.open(busy, alice, Set.of(alice, bob), "hello bob", at()).message();
        chats.open(quiet, bob, Set.of(bob, alice), "hello alice", at());
        chats.open(notBobs, alice, Set.of(alice), "just me", at());

        List<PendingChat> pending = chats.pending(bob, 100);

        assertThat(pending).extracting(PendingChat::chat).containsExactlyInAnyOrder(busy, quiet);
        assertThat(pending).extracting(PendingChat::chat).as("in chat id order").isSorted();
        assertThat(pendingIn(bob, busy).messages()).containsExactly(hello);
        assertThat(pendingIn(bob, busy).unread()).isEqualTo(1);
        assertThat(pendingIn(bob, quiet).messages()).isEmpty();
        assertThat(pendingIn(bob, quiet).unread()).isZero();
    }

    @Test
    public void pending_for_a_user_in_no_chat_is_empty() {
        assertThat(chats.pending(user("loner"), 100)).isEmpty();
    }

    @Test
    public void pending_caps_the_messages_per_chat_but_reports_the_full_unread_count() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        Message one = chats.open(chat, alice, Set.of(alice, bob), "one", at()).message();
        Message two = chats.send(chat, alice, "two", at());
        chats.send(chat, alice, "three", at());
        chats.send(chat, alice, "four", at());

        PendingChat pending = chats.pending(bob, 2).getFirst();

        assertThat(pending.messages()).as("the oldest ones first").containsExactly(one, two);
        assertThat(pending.unread()).isEqualTo(4);
    }

    @Test
    public void pending_does_not_move_the_cursor() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        chats.send(chat, alice, "two", at());

        PendingChat first = pendingIn(bob, chat);
        PendingChat second = pendingIn(bob, chat);

        assertThat(second).isEqualTo(first);
        assertThat(summary(bob, chat).cursor()).isZero();
    }

    // ---------------------------------------------------------------- acknowledge

    @Test
    public void acknowledge_moves_the_cursor_forward() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        chats.send(chat, alice, "two", at());
        Message three = chats.send(chat, alice, "three", at());

        chats.acknowledge(bob, chat, 2);

        assertThat(summary(bob, chat).cursor()).isEqualTo(2);
        assertThat(pendingIn(bob, chat).messages()).containsExactly(three);
        assertThat(pendingIn(bob, chat).unread()).isEqualTo(1);
    }

    @Test
    public void acknowledge_never_moves_a_cursor_backwards() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        chats.send(chat, alice, "two", at());
        chats.send(chat, alice, "three", at());
        chats.acknowledge(bob, chat, 3);

        chats.acknowledge(bob, chat, 1);
        chats.acknowledge(bob, chat, 0);

        assertThat(summary(bob, chat).cursor()).isEqualTo(3);
        assertThat(pendingIn(bob, chat).unread()).isZero();
    }

    @Test
    public void acknowledging_beyond_the_last_id_is_rejected_and_changes_nothing() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        chats.send(chat, alice, "two", at());

        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> chats.acknowledge(bob, chat, 3));
        assertThat(summary(bob, chat).cursor()).isZero();
        assertThat(pendingIn(bob, chat).unread()).isEqualTo(2);
    }

    @Test
    public void acknowledging_in_an_unknown_chat_is_rejected() {
        UserId alice = user("alice");
        ChatId chat = chatId();

        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.acknowledge(alice, chat, 0));
        assertThat(chats.chatsOf(alice)).isEmpty();
    }

    @Test
    public void a_user_who_never_joined_cannot_acknowledge_and_is_not_added() {
        UserId alice = user("alice");
        UserId mallory = user("mallory");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), "one", at());

        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.acknowledge(mallory, chat, 1));
        assertThat(chats.chatsOf(mallory)).isEmpty();
        assertThat(summary(alice, chat).members()).containsExactly(alice);
    }

    @Test
    public void a_user_who_left_cannot_acknowledge_and_is_not_added_back() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        chats.leave(chat, bob);

        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.acknowledge(bob, chat, 1));
        assertThat(chats.chatsOf(bob)).isEmpty();
        assertThat(chats.pending(bob, 100)).isEmpty();
        assertThat(summary(alice, chat).members()).containsExactly(alice);
        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.send(chat, bob, "am I back?", at()));
    }

    // ---------------------------------------------------------------- trimming

    @Test
    public void messages_every_member_has_acknowledged_are_trimmed() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        chats.send(chat, alice, "two", at());
        Message three = chats.send(chat, alice, "three", at());

        chats.acknowledge(bob, chat, 2);

        MessagePage history = chats.read(alice, chat, 0, 10);
        assertThat(history.messages()).as("alice (cursor 3) and bob (cursor 2) both have 1 and 2")
                .containsExactly(three);
        assertThat(history.gap()).isTrue();
        assertThat(history.firstAvailableId()).isEqualTo(3);
        assertThat(history.lastId()).isEqualTo(3);
    }

    @Test
    public void messages_some_member_has_not_acknowledged_are_kept() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        UserId carol = user("carol");
        ChatId chat = chatId();
        Message one = chats.open(chat, alice, Set.of(alice, bob, carol), "one", at()).message();
        Message two = chats.send(chat, alice, "two", at());
        Message three = chats.send(chat, alice, "three", at());

        chats.acknowledge(bob, chat, 3);

        MessagePage whileCarolLags = chats.read(bob, chat, 0, 10);
        assertThat(whileCarolLags.messages()).containsExactly(one, two, three);
        assertThat(whileCarolLags.gap()).isFalse();
        assertThat(whileCarolLags.firstAvailableId()).isEqualTo(1);
        assertThat(pendingIn(carol, chat).messages()).containsExactly(one, two, three);

        chats.acknowledge(carol, chat, 1);

        MessagePage afterCarol = chats.read(bob, chat, 0, 10);
        assertThat(afterCarol.messages()).containsExactly(two, three);
        assertThat(afterCarol.firstAvailableId()).isEqualTo(2);
    }

    @Test
    public void a_chat_holding_no_message_reports_the_next_id_as_the_first_available() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());

        chats.acknowledge(bob, chat, 1);

        MessagePage history = chats.read(bob, chat, 0, 10);
        assertThat(history.messages()).isEmpty();
        assertThat(history.firstAvailableId()).isEqualTo(2);
        assertThat(history.lastId()).isEqualTo(1);
        PendingChat pending = pendingIn(bob, chat);
        assertThat(pending.firstAvailableId()).isEqualTo(2);
        assertThat(pending.gap()).as("bob acknowledged what was dropped").isFalse();
    }

    // ---------------------------------------------------------------- retention

    @Test
    public void retention_keeps_at_most_max_retained_messages() {
        Chats small = storeWith(Limits.DEFAULTS.withMaxRetained(5)).chats();
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        small.open(chat, alice, Set.of(alice, bob), "message 1", at());
        for (int i = 2; i <= 12; i++) {
            small.send(chat, alice, "message " + i, at());
        }

        MessagePage history = small.read(alice, chat, 0, 100);

        assertThat(history.messages()).extracting(Message::id).containsExactly(8L, 9L, 10L, 11L, 12L);
        assertThat(history.gap()).isTrue();
        assertThat(history.firstAvailableId()).isEqualTo(8);
        assertThat(history.lastId()).isEqualTo(12);
    }

    @Test
    public void a_member_whose_cursor_fell_behind_retention_is_told_of_the_gap() {
        Chats small = storeWith(Limits.DEFAULTS.withMaxRetained(5)).chats();
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        small.open(chat, alice, Set.of(alice, bob), "message 1", at());
        for (int i = 2; i <= 12; i++) {
            small.send(chat, alice, "message " + i, at());
        }

        PendingChat bobs = small.pending(bob, 100).getFirst();
        PendingChat alices = small.pending(alice, 100).getFirst();

        assertThat(bobs.gap()).isTrue();
        assertThat(bobs.firstAvailableId()).as("bob missed 1 to 7").isEqualTo(8);
        assertThat(bobs.messages()).extracting(Message::id).containsExactly(8L, 9L, 10L, 11L, 12L);
        assertThat(bobs.unread()).as("every message sent after bob's cursor").isEqualTo(12);
        assertThat(alices.gap()).as("alice acknowledged everything retention dropped").isFalse();
        small.acknowledge(bob, chat, 12);
        assertThat(small.pending(bob, 100).getFirst().gap()).isFalse();
    }

    // ---------------------------------------------------------------- history

    @Test
    public void history_starts_after_the_given_id_and_respects_the_limit() {
        UserId alice = user("alice");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, user("bob")), "one", at());
        Message two = chats.send(chat, alice, "two", at());
        Message three = chats.send(chat, alice, "three", at());
        chats.send(chat, alice, "four", at());

        MessagePage page = chats.read(alice, chat, 1, 2);

        assertThat(page.messages()).containsExactly(two, three);
        assertThat(page.gap()).isFalse();
        assertThat(page.lastId()).isEqualTo(4);
        assertThat(chats.read(alice, chat, 4, 10).messages()).as("nothing after the last id").isEmpty();
        assertThat(summary(alice, chat).cursor()).as("reading history moves no cursor").isEqualTo(4);
    }

    /**
     * Bodies with control characters are refused where they enter (the commands), not by the
     * store: one kept from before that rule must still load on every read path.
     */
    @Test
    public void a_body_kept_from_before_control_characters_were_refused_still_loads() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        String old = "old \u0007 bell \u001B[31m";
        chats.open(chat, alice, Set.of(bob), old, at());
        Message sent = chats.send(chat, alice, old + " again", at());

        assertThat(chats.read(bob, chat, 0, 10).messages()).extracting(Message::body).containsExactly(old, old + " again");
        assertThat(pendingIn(bob, chat).messages()).extracting(Message::body).containsExactly(old, old + " again");
        assertThat(sent.body()).isEqualTo(old + " again");
    }

    @Test
    public void history_is_for_members_only() {
        UserId alice = user("alice");
        UserId mallory = user("mallory");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), "secret", at());

        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.read(mallory, chat, 0, 10));
        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.read(alice, chatId(), 0, 10));
    }

    // ---------------------------------------------------------------- live announcement

    @Test
    public void a_sent_message_is_announced_on_the_chats_channel() throws InterruptedException {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        Channel channel = Channel.ofChat(chat);
        List<LiveEvent> heard = new CopyOnWriteArrayList<>();
        CountDownLatch announced = new CountDownLatch(1);

        try (Channels.Connection connection = store.channels().connect(postsOn(channel, heard, announced))) {
            connection.subscribe(channel);
            Message sent = chats.send(chat, bob, "did you hear that?", at());

            assertThat(announced.await(10, TimeUnit.SECONDS)).as("announced within 10 s").isTrue();
            assertThat(heard.getFirst()).isEqualTo(new LiveEvent.MessagePosted(chat, sent));
        }
    }

    @Test
    public void the_opening_message_is_announced_like_any_other() throws InterruptedException {
        UserId alice = user("alice");
        ChatId chat = chatId();
        Channel channel = Channel.ofChat(chat);
        List<LiveEvent> heard = new CopyOnWriteArrayList<>();
        CountDownLatch announced = new CountDownLatch(1);

        try (Channels.Connection connection = store.channels().connect(postsOn(channel, heard, announced))) {
            connection.subscribe(channel);
            Message opening = chats.open(chat, alice, Set.of(alice, user("bob")), "first!", at()).message();

            assertThat(announced.await(10, TimeUnit.SECONDS)).as("announced within 10 s").isTrue();
            assertThat(heard.getFirst()).isEqualTo(new LiveEvent.MessagePosted(chat, opening));
        }
    }
}
