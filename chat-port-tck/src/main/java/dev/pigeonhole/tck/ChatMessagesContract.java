package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.PendingChat;
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
 * The promises of {@link Chats} about a message on its way to the members (docs/DESIGN.md §3,
 * "Group chat"), one test per rule, each in one thread: gap-free ids, members-only send, pending
 * that moves no cursor, forward-only acknowledge, and live announcements.
 * {@link ChatHistoryContract} picks up where a message's way ends: what a chat keeps once members
 * have read it, and reading it back. {@link ChatMembershipContract} covers who is in a chat;
 * {@link ChatRacesContract} checks the same rules under concurrency and
 * {@link ChatsDifferentialContract} against the chat aggregate.
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
