package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.Chats;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The promises of {@link Chats#acknowledge(UserId, SortedMap)}: one call acknowledges in many
 * chats, each as a single acknowledge would, and a batch with one bad entry is refused whole, by
 * the first bad entry in {@link ChatId} order, having changed nothing. Chat ids are random, so on
 * a cluster a batch spans its nodes.
 */
public abstract class ChatBatchAcknowledgeContract extends ChatsContractSupport {

    private UserId alice;
    private UserId bob;

    /** Three chats of alice and bob, in ChatId order, each with messages 1 to 3 that bob has not read. */
    private List<ChatId> threeChats() {
        alice = user("alice");
        bob = user("bob");
        List<ChatId> ids = new ArrayList<>(List.of(chatId(), chatId(), chatId()));
        ids.sort(null);
        for (ChatId chat : ids) {
            chats.open(chat, alice, Set.of(alice, bob), "one", at());
            chats.send(chat, alice, "two", at());
            chats.send(chat, alice, "three", at());
        }
        return ids;
    }

    private static SortedMap<ChatId, Long> upTo(Map<ChatId, Long> entries) {
        return new TreeMap<>(entries);
    }

    private void assertNothingAcknowledgedBy(UserId user, List<ChatId> ids) {
        for (ChatId chat : ids) {
            assertThat(summary(user, chat).cursor()).as("%s's cursor in %s", user, chat).isZero();
            assertThat(pendingIn(user, chat).unread()).as("unread in %s", chat).isEqualTo(3);
        }
    }

    @Test
    public void a_batch_moves_each_chats_cursor_to_its_own_id() {
        List<ChatId> ids = threeChats();

        chats.acknowledge(bob, upTo(Map.of(ids.get(0), 1L, ids.get(1), 3L, ids.get(2), 2L)));

        assertThat(summary(bob, ids.get(0)).cursor()).isEqualTo(1);
        assertThat(summary(bob, ids.get(1)).cursor()).isEqualTo(3);
        assertThat(summary(bob, ids.get(2)).cursor()).isEqualTo(2);
        assertThat(pendingIn(bob, ids.get(0)).unread()).isEqualTo(2);
        assertThat(pendingIn(bob, ids.get(1)).unread()).isZero();
        assertThat(pendingIn(bob, ids.get(2)).unread()).isEqualTo(1);
    }

    @Test
    public void a_batch_never_moves_a_cursor_backwards() {
        List<ChatId> ids = threeChats();
        chats.acknowledge(bob, ids.get(0), 3);

        chats.acknowledge(bob, upTo(Map.of(ids.get(0), 1L, ids.get(1), 2L)));

        assertThat(summary(bob, ids.get(0)).cursor()).isEqualTo(3);
        assertThat(summary(bob, ids.get(1)).cursor()).isEqualTo(2);
    }

    @Test
    public void a_batch_trims_what_every_member_has_acknowledged_in_each_chat() {
        List<ChatId> ids = threeChats();
        // alice's own sends moved her cursor to 3; once bob is at 2, messages 1 and 2 may go.
        chats.acknowledge(bob, upTo(Map.of(ids.get(0), 2L, ids.get(2), 3L)));

        assertThat(chats.read(alice, ids.get(0), 0, 10).messages()).extracting(m -> m.id())
                .containsExactly(3L);
        assertThat(chats.read(alice, ids.get(1), 0, 10).messages()).hasSize(3);
        assertThat(chats.read(alice, ids.get(2), 0, 10).messages()).isEmpty();
    }

    @Test
    public void a_chat_the_user_is_not_in_refuses_the_whole_batch_and_changes_nothing() {
        List<ChatId> ids = threeChats();
        chats.leave(ids.get(2), bob);
        UserId carol = user("carol");
        chats.join(ids.get(1), alice, carol);

        // The refused chat comes last, so every chat before it would have moved first. It is
        // private and bob is out of it, so to him it does not exist.
        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.acknowledge(bob, upTo(Map.of(ids.get(0), 3L, ids.get(1), 3L, ids.get(2), 1L))))
                .withMessageContaining(ids.get(2).value());
        assertNothingAcknowledgedBy(bob, ids.subList(0, 2));
        assertThat(chats.chatsOf(bob)).as("bob is not added back").extracting(s -> s.chat())
                .containsExactlyInAnyOrder(ids.get(0), ids.get(1));
    }

    @Test
    public void an_unknown_chat_refuses_the_whole_batch_and_changes_nothing() {
        List<ChatId> ids = threeChats();
        ChatId unknown = ChatId.of(ids.get(2).value() + "-unknown");

        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.acknowledge(bob, upTo(Map.of(ids.get(0), 3L, ids.get(2), 3L, unknown, 1L))))
                .withMessageContaining(unknown.value());
        assertNothingAcknowledgedBy(bob, ids);
    }

    @Test
    public void an_id_beyond_a_chats_last_refuses_the_whole_batch_and_changes_nothing() {
        List<ChatId> ids = threeChats();

        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> chats.acknowledge(bob, upTo(Map.of(ids.get(0), 3L, ids.get(1), 3L, ids.get(2), 4L))))
                .withMessageContaining(ids.get(2).value()).withMessageContaining("4");
        assertNothingAcknowledgedBy(bob, ids);
    }

    @Test
    public void of_several_bad_entries_the_first_in_chat_id_order_is_the_one_refused() {
        List<ChatId> ids = threeChats();
        chats.leave(ids.get(1), bob);

        // The second chat is not bob's and the third's id is too high: the second is named.
        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> chats.acknowledge(bob, upTo(Map.of(ids.get(0), 1L, ids.get(1), 1L, ids.get(2), 9L))))
                .withMessageContaining(ids.get(1).value());
        assertThat(summary(bob, ids.get(0)).cursor()).isZero();
    }

    @Test
    public void a_batch_of_one_chat_is_a_single_acknowledge() {
        List<ChatId> ids = threeChats();

        chats.acknowledge(bob, upTo(Map.of(ids.get(1), 2L)));

        assertThat(summary(bob, ids.get(1)).cursor()).isEqualTo(2);
        assertThat(summary(bob, ids.get(0)).cursor()).isZero();
        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> chats.acknowledge(bob, upTo(Map.of(ids.get(1), 7L))));
    }
}
