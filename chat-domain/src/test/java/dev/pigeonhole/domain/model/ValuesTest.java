package dev.pigeonhole.domain.model;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValuesTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final UserId ALICE = UserId.of("alice");

    @Test
    void a_message_id_starts_at_one() {
        assertThatThrownBy(() -> new Message(0, NOW, ALICE, "hi")).isInstanceOf(InvalidInputException.class);
        assertThat(new Message(1, NOW, ALICE, "hi").id()).isEqualTo(1);
    }

    @Test
    void a_message_body_must_have_a_visible_character() {
        assertThatThrownBy(() -> new Message(1, NOW, ALICE, " \n\t")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> new DirectMessage(NOW, ALICE, null)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("missing");
    }

    @Test
    void the_configured_body_limit_is_checked_with_a_message_that_says_the_limit() {
        Limits limits = Limits.DEFAULTS.withMaxBodyLength(5);

        assertThat(MessageText.check("12345", limits)).isEqualTo("12345");
        assertThatThrownBy(() -> MessageText.check("123456", limits)).isInstanceOf(InvalidInputException.class)
                .hasMessage("message is 6 characters long; the limit is 5");
    }

    @Test
    void the_default_limits_are_the_documented_ones() {
        assertThat(Limits.DEFAULTS).isEqualTo(new Limits(4_096, 1_000, 10_000, 10_000));
        assertThatThrownBy(() -> Limits.DEFAULTS.withMaxRetained(0)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("maxRetained");
    }

    @Test
    void unread_is_the_distance_from_cursor_to_last_id() {
        ChatSummary summary = new ChatSummary(ChatId.of("827"), Set.of(ALICE), 5, 6);

        assertThat(summary.unread()).isEqualTo(1);
    }

    @Test
    void a_pending_chat_cannot_claim_fewer_unread_than_it_returns() {
        Message one = new Message(1, NOW, ALICE, "hi");

        assertThatThrownBy(() -> new PendingChat(ChatId.of("1"), List.of(one), 0, false, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void domain_rejections_are_cheap_and_carry_no_stack_trace() {
        assertThat(new NotAMemberException(ALICE, ChatId.of("1")).getStackTrace()).isEmpty();
        assertThat(new StoreUnavailableException("down", new RuntimeException()).getStackTrace()).isNotEmpty();
    }
}
