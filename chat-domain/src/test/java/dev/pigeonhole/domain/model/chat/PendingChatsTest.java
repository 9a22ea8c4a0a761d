package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.PendingBudget;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PendingChatsTest {

    private static final UserId ALICE = UserId.of("alice");

    private static PendingChat chatWith(String chat, int messages, int bodyLength) {
        List<Message> page = new ArrayList<>();
        for (int id = 1; id <= messages; id++) {
            page.add(new Message(id, Instant.EPOCH, ALICE, "x".repeat(bodyLength)));
        }
        return new PendingChat(ChatId.of(chat), page, messages, false, 1, false);
    }

    @Test
    void what_fits_is_returned_whole() {
        List<PendingChat> chats = List.of(chatWith("a", 3, 10), chatWith("b", 2, 10));

        assertThat(PendingChats.within(new PendingBudget(5, 50), chats)).isEqualTo(chats);
    }

    @Test
    void the_count_is_shared_out_one_message_per_chat_in_turn() {
        List<PendingChat> shared = PendingChats.within(new PendingBudget(5, 1 << 20), List.of(chatWith("deep", 100, 1), chatWith("b", 1, 1), chatWith("c", 3, 1)));

        assertThat(shared).extracting(chat -> chat.messages().size()).containsExactly(2, 1, 2);
        assertThat(shared).extracting(PendingChat::more).containsExactly(true, false, true);
        assertThat(shared).extracting(PendingChat::unread).as("unread stays the full count").containsExactly(100L, 1L, 3L);
    }

    @Test
    void bytes_of_text_count_too_in_utf_8() {
        PendingChat wide = new PendingChat(ChatId.of("w"), List.of(new Message(1, Instant.EPOCH, ALICE, "é".repeat(10)),
                new Message(2, Instant.EPOCH, ALICE, "é".repeat(10))), 2, false, 1, false);

        assertThat(PendingChats.within(new PendingBudget(10, 39), List.of(wide)).getFirst().messages()).hasSize(1);
        assertThat(PendingChats.within(new PendingBudget(10, 40), List.of(wide)).getFirst().messages()).hasSize(2);
    }

    @Test
    void a_text_is_weighed_as_its_utf_8_encoding_whatever_its_characters() {
        for (String text : List.of("plain", "é", "€ and 🙂", "a\uD800b", "\uDC00", "ends high \uD83D", "🙂🙂")) {
            assertThat(PendingChats.utf8Length(text)).as(text).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
        }
    }

    @Test
    void the_first_message_always_fits_so_none_is_too_large_to_hand_out() {
        List<PendingChat> shared = PendingChats.within(new PendingBudget(10, 5), List.of(chatWith("a", 2, 100)));

        assertThat(shared.getFirst().messages()).hasSize(1);
        assertThat(shared.getFirst().more()).isTrue();
    }

    @Test
    void a_budget_holds_at_least_one_message_and_one_byte() {
        assertThat(new PendingBudget(1, 1).maxMessages()).isEqualTo(1);
        assertThatThrownBy(() -> new PendingBudget(0, 1)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new PendingBudget(1, 0)).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void a_character_weighs_what_utf_8_makes_of_it_at_each_edge_of_a_width() {
        for (String text : List.of("\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "\ud83d\udc26")) {
            assertThat(PendingChats.utf8Length(text)).as("U+%04X", text.codePointAt(0))
                    .isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
        }
    }
}
