package dev.pigeonhole.domain.model;

import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MessageTextTest {

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void a_control_character_is_named_with_its_position_counted_from_one() {
        assertThatThrownBy(() -> MessageText.check("ring the b\u0007ll"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("message has a control character (U+0007) at position 11; only tab and line feed are allowed");
    }

    @ParameterizedTest
    @ValueSource(ints = {0x00, 0x01, 0x08, 0x0B, 0x0C, 0x0D, 0x1B, 0x1F, 0x7F})
    void every_c0_control_but_tab_and_line_feed_is_refused_and_so_is_delete(int control) {
        String body = "hi " + (char) control;

        assertThatThrownBy(() -> MessageText.check(body)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining(String.format("(U+%04X) at position 4", control));
    }

    @Test
    void tab_and_line_feed_are_allowed_and_so_is_text_beyond_ascii() {
        assertThatCode(() -> MessageText.check("line one\n\tline two")).doesNotThrowAnyException();
        assertThatCode(() -> MessageText.check("caf\u00e9 \uD83D\uDE00 \u00a0")).doesNotThrowAnyException();
    }

    @Test
    void a_position_counts_characters_not_utf_16_units() {
        assertThatThrownBy(() -> MessageText.check("\uD83D\uDE00\u001B[31m"))
                .hasMessageContaining("(U+001B) at position 2");
    }

    @Test
    void a_body_of_only_a_control_character_is_named_for_it_not_called_blank() {
        assertThatThrownBy(() -> MessageText.check("\u0000")).hasMessageContaining("(U+0000) at position 1");
    }

    @Test
    void every_command_that_carries_a_body_refuses_one() {
        ChatId chat = ChatId.of("lunch");
        assertThatThrownBy(() -> new SendMessage.Command(chat, ALICE, "a\u0000b")).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new DeliverDirectMessage.Command(ALICE, BOB, "\u001B[2J"))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new CreateChat.Command(ALICE, Set.of(BOB), Optional.empty(), "hi\r"))
                .isInstanceOf(InvalidInputException.class);
    }

    @Test
    void a_message_stored_before_the_rule_still_loads() {
        assertThat(new Message(1, NOW, ALICE, "old \u0007 bell").body()).isEqualTo("old \u0007 bell");
        assertThat(new DirectMessage(1, NOW, ALICE, "\u001B[31mred").body()).isEqualTo("\u001B[31mred");
    }
}
