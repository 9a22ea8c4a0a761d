package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Chats;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The promises of {@link Chats} about who is in a chat (docs/DESIGN.md §3, "Group chat"), one test per
 * rule: opening, joining and re-joining, leaving, the last leave deleting the chat, the member
 * limit and the chat list. {@link ChatMessagesContract} covers what members send and read,
 * {@link ChatHistoryContract} what a chat keeps of it.
 */
public abstract class ChatMembershipContract extends ChatsContractSupport {

    // ---------------------------------------------------------------- create

    @Test
    public void creating_a_chat_with_a_taken_id_is_rejected_and_changes_nothing() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        UserId eve = user("eve");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        ChatSummary before = summary(alice, chat);

        assertThatExceptionOfType(ChatAlreadyExistsException.class)
                .isThrownBy(() -> chats.open(chat, eve, Set.of(eve, bob), "mine now", at()));

        assertThat(summary(alice, chat)).isEqualTo(before);
        assertThat(summary(bob, chat).cursor()).isZero();
        assertThat(chats.chatsOf(eve)).isEmpty();
        assertThat(chats.read(alice, chat, 0, 10).messages()).extracting(Message::body)
                .containsExactly("one");
    }

    @Test
    public void the_creator_is_a_member_even_when_not_listed() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();

        chats.open(chat, alice, Set.of(bob), "I'm in too", at());

        assertThat(summary(alice, chat).members()).containsExactlyInAnyOrder(alice, bob);
        assertThat(summary(alice, chat).cursor()).isEqualTo(1);
    }

    @Test
    public void new_chat_ids_never_repeat() {
        Set<ChatId> handedOut = new HashSet<>();

        for (int i = 0; i < 1_000; i++) {
            ChatId id = chats.newChatId();
            assertThat(handedOut.add(id)).as("chat id %s handed out twice", id).isTrue();
        }
    }

    @Test
    public void a_new_chat_id_is_never_one_a_creator_already_took() {
        // Counters count 1, 2, 3…: claim those names first. This test's store is its own, so
        // plain numbers here collide with nobody else's chats.
        UserId alice = user("alice");
        Set<ChatId> taken = new HashSet<>();
        for (int n = 1; n <= 50; n++) {
            ChatId chat = ChatId.of(Integer.toString(n));
            chats.open(chat, alice, Set.of(alice), "claimed", at());
            taken.add(chat);
        }

        for (int i = 0; i < 50; i++) {
            assertThat(chats.newChatId()).isNotIn(taken);
        }
    }

    @Test
    public void a_new_chat_id_is_free_to_open() {
        UserId alice = user("alice");
        ChatId chat = chats.newChatId();

        Message opening = chats.open(chat, alice, Set.of(alice), "fresh", at()).message();

        assertThat(opening.id()).isEqualTo(1);
        assertThat(chats.newChatId()).isNotEqualTo(chat);
    }

    // ---------------------------------------------------------------- join and leave

    @Test
    public void join_starts_the_new_member_at_the_latest_id() {
        UserId alice = user("alice");
        UserId dave = user("dave");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), "one", at());
        chats.send(chat, alice, "two", at());

        chats.join(chat, alice, dave);

        assertThat(summary(dave, chat).cursor()).isEqualTo(2);
        assertThat(pendingIn(dave, chat).unread()).isZero();
        Message three = chats.send(chat, alice, "welcome dave", at());
        assertThat(pendingIn(dave, chat).messages()).containsExactly(three);
        assertThat(summary(alice, chat).members()).containsExactlyInAnyOrder(alice, dave);
    }

    @Test
    public void joining_again_as_a_member_keeps_the_cursor() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        Message one = chats.open(chat, alice, Set.of(alice, bob), "one", at()).message();
        Message two = chats.send(chat, alice, "two", at());

        chats.join(chat, bob, bob);

        assertThat(summary(bob, chat).cursor()).isZero();
        assertThat(pendingIn(bob, chat).messages()).as("no unread message skipped").containsExactly(one, two);
    }

    @Test
    public void a_user_who_left_and_joins_again_starts_at_the_latest_id() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        chats.leave(chat, bob);
        chats.send(chat, alice, "said while bob was away", at());

        chats.join(chat, alice, bob);

        assertThat(summary(bob, chat).cursor()).isEqualTo(2);
        assertThat(pendingIn(bob, chat).unread()).isZero();
    }

    @Test
    public void when_the_member_holding_messages_back_leaves_what_the_others_have_seen_is_trimmed() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        UserId carol = user("carol");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob, carol), "one", at());
        chats.send(chat, alice, "two", at());
        chats.acknowledge(bob, chat, 1);
        assertThat(chats.read(alice, chat, 0, 10).firstAvailableId()).as("carol holds #1 back").isEqualTo(1);

        chats.leave(chat, carol);

        assertThat(chats.read(alice, chat, 0, 10).firstAvailableId()).isEqualTo(2);
    }

    @Test
    public void joining_an_unknown_chat_is_rejected() {
        UserId dave = user("dave");
        ChatId chat = chatId();

        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.join(chat, dave, dave));
        assertThat(chats.chatsOf(dave)).as("a join does not create a chat").isEmpty();
    }

    @Test
    public void leaving_an_unknown_chat_is_rejected() {
        UserId dave = user("dave");
        ChatId chat = chatId();

        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.leave(chat, dave));
    }

    @Test
    public void leaving_a_chat_you_are_not_in_is_rejected() {
        UserId alice = user("alice");
        UserId mallory = user("mallory");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), "one", at());

        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.leave(chat, mallory));
        assertThat(summary(alice, chat).members()).containsExactly(alice);
    }

    @Test
    public void leave_removes_the_chat_from_the_users_list_and_pending() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());

        chats.leave(chat, bob);

        assertThat(chats.chatsOf(bob)).isEmpty();
        assertThat(chats.pending(bob, 100)).isEmpty();
        assertThat(summary(alice, chat).members()).containsExactly(alice);
        assertThat(chats.send(chat, alice, "still here", at()).id()).as("the chat goes on for the others")
                .isEqualTo(2);
    }

    @Test
    public void the_last_member_leaving_deletes_the_chat() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());
        chats.send(chat, bob, "two", at());
        chats.leave(chat, bob);

        chats.leave(chat, alice);

        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.send(chat, alice, "hi", at()));
        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.join(chat, bob, bob));
        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.acknowledge(alice, chat, 0));
        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.read(alice, chat, 0, 10));
        assertThat(chats.chatsOf(alice)).isEmpty();
        assertThat(chats.chatsOf(bob)).isEmpty();
        assertThat(store.tracesOf(chat)).as("what the store still holds of the deleted chat").isEmpty();
    }

    // ---------------------------------------------------------------- member limit

    @Test
    public void the_member_limit_rejects_a_join() {
        Chats small = storeWith(Limits.DEFAULTS.withMaxMembers(2)).chats();
        UserId alice = user("alice");
        UserId bob = user("bob");
        UserId carol = user("carol");
        ChatId chat = chatId();
        small.open(chat, alice, Set.of(alice, bob), "two is company", at());

        assertThatExceptionOfType(ChatFullException.class).isThrownBy(() -> small.join(chat, alice, carol));

        assertThat(small.chatsOf(carol)).isEmpty();
        assertThat(small.chatsOf(alice).getFirst().members()).containsExactlyInAnyOrder(alice, bob);
        small.leave(chat, bob);
        small.join(chat, alice, carol);
        assertThat(small.chatsOf(alice).getFirst().members()).as("a seat freed by leaving can be taken")
                .containsExactlyInAnyOrder(alice, carol);
    }

    @Test
    public void opening_a_chat_with_more_members_than_the_limit_is_bad_input_and_opens_nothing() {
        Chats small = storeWith(Limits.DEFAULTS.withMaxMembers(2)).chats();
        UserId alice = user("alice");
        ChatId chat = chatId();

        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> small.open(chat, alice, Set.of(alice, user("bob"), user("carol")), "hi all", at()));

        assertThat(small.chatsOf(alice)).isEmpty();
        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> small.send(chat, alice, "hi", at()));
    }

    @Test
    public void a_member_joining_a_full_chat_again_keeps_its_place() {
        Chats small = storeWith(Limits.DEFAULTS.withMaxMembers(2)).chats();
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        small.open(chat, alice, Set.of(alice, bob), "two is company", at());

        small.join(chat, bob, bob);

        assertThat(small.chatsOf(bob).getFirst().cursor()).isZero();
    }

    // ---------------------------------------------------------------- chat list

    @Test
    public void chats_of_reports_members_cursor_last_id_and_unread_in_chat_id_order() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        UserId carol = user("carol");
        String prefix = "chat-" + UUID.randomUUID() + "-";
        ChatId first = ChatId.of(prefix + "a");
        ChatId second = ChatId.of(prefix + "b");
        ChatId third = ChatId.of(prefix + "c");
        chats.open(third, carol, Set.of(carol, bob), "third", at());
        chats.open(first, alice, Set.of(alice, bob, carol), "first", at());
        chats.send(first, alice, "first again", at());
        chats.send(first, carol, "first, carol", at());
        chats.open(second, bob, Set.of(bob), "second", at());
        chats.acknowledge(bob, first, 1);

        List<ChatSummary> bobs = chats.chatsOf(bob);

        assertThat(bobs).containsExactly(
                new ChatSummary(first, Set.of(alice, bob, carol), Access.PRIVATE, 1, 3),
                new ChatSummary(second, Set.of(bob), Access.PRIVATE, 1, 1),
                new ChatSummary(third, Set.of(carol, bob), Access.PRIVATE, 0, 1));
        assertThat(bobs).extracting(ChatSummary::unread).containsExactly(2L, 0L, 1L);
        assertThat(chats.chatsOf(user("nobody"))).isEmpty();
    }
}
