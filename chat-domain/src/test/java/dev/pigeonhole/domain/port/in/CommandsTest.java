package dev.pigeonhole.domain.port.in;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.ReadMessages;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.mailbox.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.ReadDirectMessages;
import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandsTest {

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final ChatId CHAT = ChatId.of("827");

    @Test
    void create_chat_counts_the_creator_once_as_a_member() {
        var command = new CreateChat.Command(ALICE, Set.of(BOB, ALICE), Optional.empty(), "hi");

        assertThat(command.members()).containsExactly(ALICE, BOB);
    }

    @Test
    void a_blank_message_is_refused_before_it_reaches_a_service() {
        assertThatThrownBy(() -> new SendMessage.Command(CHAT, ALICE, "  ")).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new DeliverDirectMessage.Command(ALICE, BOB, ""))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new CreateChat.Command(ALICE, Set.of(), Optional.empty(), null))
                .isInstanceOf(InvalidInputException.class);
    }

    @Test
    void counts_and_positions_are_checked_with_their_bounds_in_the_message() {
        assertThatThrownBy(() -> new AcknowledgeMessages.Command(ALICE, CHAT, -1))
                .hasMessage("upTo must be 0 or more, not -1");
        assertThatThrownBy(() -> new ReadMessages.Query(ALICE, CHAT, 0, 0))
                .hasMessage("limit must be between 1 and 1000, not 0");
        assertThatThrownBy(() -> new ReadDirectMessages.Command(ALICE, 1_001))
                .hasMessage("max must be between 1 and 1000, not 1001");
        assertThatThrownBy(() -> new AcknowledgeDirectMessages.Command(ALICE, -1))
                .hasMessage("upTo must be 0 or more, not -1");
        assertThatThrownBy(() -> new FetchPending.Query(ALICE, 0)).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void a_batch_acknowledge_names_one_to_a_thousand_chats_each_at_zero_or_more() {
        assertThatThrownBy(() -> new AcknowledgeMessages.Batch(ALICE, Map.of()))
                .hasMessage("name at least one chat to acknowledge");
        assertThatThrownBy(() -> new AcknowledgeMessages.Batch(ALICE, Map.of(CHAT, 3L, ChatId.of("other"), -1L)))
                .hasMessage("upTo must be 0 or more, not -1 (chat other)");
        Map<ChatId, Long> tooMany = new HashMap<>();
        for (int i = 0; i <= AcknowledgeMessages.Batch.MAX_CHATS; i++) {
            tooMany.put(ChatId.of("c" + i), 1L);
        }
        assertThatThrownBy(() -> new AcknowledgeMessages.Batch(ALICE, tooMany))
                .hasMessage("at most 1000 chats may be acknowledged at once, not 1001");
        tooMany.remove(ChatId.of("c0"));
        assertThat(new AcknowledgeMessages.Batch(ALICE, tooMany).upTo()).hasSize(1_000);
    }

    @Test
    void a_batch_keeps_its_chats_in_chat_id_order_and_cannot_be_changed_afterwards() {
        Map<ChatId, Long> given = new HashMap<>(Map.of(ChatId.of("b"), 2L, ChatId.of("a"), 1L, ChatId.of("c"), 0L));
        AcknowledgeMessages.Batch batch = new AcknowledgeMessages.Batch(ALICE, given);
        given.put(ChatId.of("d"), 4L);

        assertThat(batch.upTo().keySet()).extracting(ChatId::value).containsExactly("a", "b", "c");
        assertThatThrownBy(() -> batch.upTo().put(ChatId.of("e"), 1L)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void the_bounds_themselves_are_allowed() {
        assertThat(new AcknowledgeMessages.Command(ALICE, CHAT, 0).upTo()).isZero();
        assertThat(new ReadMessages.Query(ALICE, CHAT, 0, 1).limit()).isEqualTo(1);
        assertThat(new ReadMessages.Query(ALICE, CHAT, 0, ReadMessages.Query.MAX_LIMIT).limit()).isEqualTo(1_000);
        assertThatThrownBy(() -> new ReadMessages.Query(ALICE, CHAT, 0, 1_001)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new ReadMessages.Query(ALICE, CHAT, -1, 10)).isInstanceOf(InvalidInputException.class);
        assertThat(new ReadDirectMessages.Command(ALICE, 1).max()).isEqualTo(1);
        assertThat(new ReadDirectMessages.Command(ALICE, ReadDirectMessages.Command.MAX).max()).isEqualTo(1_000);
        assertThatThrownBy(() -> new ReadDirectMessages.Command(ALICE, 0)).isInstanceOf(InvalidInputException.class);
        assertThat(new AcknowledgeDirectMessages.Command(ALICE, 0).upTo()).isZero();
        assertThat(new FetchPending.Query(ALICE, FetchPending.Query.MAX_PER_CHAT_LIMIT).perChatLimit()).isEqualTo(10_000);
        assertThatThrownBy(() -> new FetchPending.Query(ALICE, 10_001)).isInstanceOf(InvalidInputException.class);
        assertThat(new ListOnlineUsers.Query(ListOnlineUsers.Query.MAX_WINDOW).within()).isEqualTo(Duration.ofDays(1));
        assertThat(new ListOnlineUsers.Query(Duration.ofMillis(1)).within()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void the_online_window_must_be_positive_and_at_most_a_day() {
        assertThat(new ListOnlineUsers.Query(Duration.ofMinutes(15)).within()).isEqualTo(Duration.ofMinutes(15));
        assertThatThrownBy(() -> new ListOnlineUsers.Query(Duration.ZERO)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new ListOnlineUsers.Query(Duration.ofDays(2))).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void pending_defaults_to_a_thousand_messages_per_chat() {
        assertThat(new FetchPending.Query(ALICE).perChatLimit()).isEqualTo(1_000);
    }
}
