package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.MessagePage;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Chats;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The promises of {@link Chats} about what a chat keeps of its messages (docs/DESIGN.md §3,
 * "Group chat"), one test per rule, each in one thread: a message every member has acknowledged
 * is trimmed, retention keeps at most so many and tells a member who fell behind of the gap, and
 * history reads what is kept, to members only, moving no cursor.
 * {@link ChatMessagesContract} covers a message's way there: sending, pending and acknowledge.
 */
public abstract class ChatHistoryContract extends ChatsContractSupport {

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
}
