package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.Joined;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Chats;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What {@link Chats} offers consent (docs/DESIGN.md §3, "Consent"): one chat's summary for an inviter, the
 * ids of a user's chats, and an accept that joins at the invitation's point.
 */
public abstract class ChatInvitationsContract extends ChatsContractSupport {

    @Test
    public void the_ids_of_a_users_chats_follow_its_opens_joins_and_leaves_in_id_order() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId first = ChatId.of("a-" + chatId());
        ChatId second = ChatId.of("b-" + chatId());
        chats.open(second, alice, Set.of(), Access.OPEN, "second", at());
        chats.open(first, alice, Set.of(bob), "first", at());
        chats.join(second, bob, bob);

        assertThat(chats.chatIdsOf(alice)).containsExactly(first, second);
        assertThat(chats.chatIdsOf(bob)).containsExactly(first, second);

        chats.leave(first, bob);

        assertThat(chats.chatIdsOf(bob)).containsExactly(second);
        assertThat(chats.chatIdsOf(user("nobody"))).isEmpty();
    }

    @Test
    public void a_members_summary_of_one_chat_is_its_line_in_the_chat_list() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(bob), "one", at());
        chats.send(chat, alice, "two", at());

        ChatSummary one = chats.summaryOf(bob, chat);

        assertThat(one).isEqualTo(summary(bob, chat));
        assertThat(one.lastId()).isEqualTo(2);
        assertThat(one.members()).containsExactlyInAnyOrder(alice, bob);
    }

    @Test
    public void only_a_member_reads_a_chats_summary() {
        UserId alice = user("alice");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), Access.OPEN, "one", at());

        assertThatExceptionOfType(NotAMemberException.class).isThrownBy(() -> chats.summaryOf(user("eve"), chat));
        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.summaryOf(alice, chatId()));
    }

    @Test
    public void an_accepted_invitation_reads_from_where_it_was_made_and_nothing_before() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), "before the invitation", at());
        long invitedAt = chats.summaryOf(alice, chat).lastId();
        chats.send(chat, alice, "with the invitation", at());
        chats.send(chat, alice, "while it waited", at());

        Joined joined = chats.accept(chat, alice, bob, invitedAt);

        assertThat(joined.added()).isTrue();
        assertThat(chats.read(bob, chat, 0, 10).messages()).extracting(Message::body)
                .containsExactly("with the invitation", "while it waited");
        assertThat(pendingIn(bob, chat).messages()).extracting(Message::body)
                .containsExactly("with the invitation", "while it waited");
        assertThat(chats.chatIdsOf(bob)).containsExactly(chat);
    }

    @Test
    public void an_invitation_to_the_chat_from_its_first_message_reads_it_all() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), "hello, bob", at());

        chats.accept(chat, alice, bob, 0);

        assertThat(chats.read(bob, chat, 0, 10).messages()).extracting(Message::body).containsExactly("hello, bob");
    }

    @Test
    public void an_invitation_past_the_last_id_joins_at_the_last_id() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), "a chat opened again under an old name", at());

        chats.accept(chat, alice, bob, 40);

        assertThat(chats.summaryOf(bob, chat).cursor()).isEqualTo(1);
        chats.send(chat, alice, "new", at());
        assertThat(chats.read(bob, chat, 0, 10).messages()).extracting(Message::body).containsExactly("new");
    }

    @Test
    public void an_accept_changes_nothing_for_someone_already_in() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(bob), "one", at());
        chats.send(chat, alice, "two", at());
        ChatSummary before = chats.summaryOf(bob, chat);

        Joined again = chats.accept(chat, alice, bob, 0);

        assertThat(again.added()).isFalse();
        assertThat(chats.summaryOf(bob, chat)).isEqualTo(before);
    }

    @Test
    public void an_invitation_whose_inviter_left_brings_no_one_in() {
        UserId alice = user("alice");
        UserId carol = user("carol");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(carol), Access.OPEN, "one", at());
        chats.leave(chat, alice);

        assertThatExceptionOfType(NotAMemberException.class).isThrownBy(() -> chats.accept(chat, alice, bob, 0));
        assertThat(chats.chatIdsOf(bob)).isEmpty();
        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.accept(chatId(), alice, bob, 0));
    }

    @Test
    public void an_accept_into_a_full_chat_is_refused_and_changes_nothing() {
        chats = storeWith(Limits.DEFAULTS.withMaxMembers(2)).chats();
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(bob), "full", at());

        assertThatExceptionOfType(ChatFullException.class)
                .isThrownBy(() -> chats.accept(chat, alice, user("carol"), 0));
        assertThat(chats.summaryOf(alice, chat).members()).isEqualTo(Set.of(alice, bob));
        assertThat(chats.chatIdsOf(alice)).isEqualTo(List.of(chat));
    }
}
