package dev.pigeonhole.domain.model;

import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.PendingBudget;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.ChannelPattern;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.model.mailbox.Mailbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
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
        assertThatThrownBy(() -> new DirectMessage(1, NOW, ALICE, null)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("missing");
    }

    @Test
    void a_direct_message_id_starts_at_one() {
        assertThatThrownBy(() -> new DirectMessage(0, NOW, ALICE, "hi")).isInstanceOf(InvalidInputException.class);
        assertThat(new DirectMessage(1, NOW, ALICE, "hi").id()).isEqualTo(1);
    }

    @Test
    void acknowledging_past_a_mailbox_s_last_id_is_refused_in_words_that_name_both_ids() {
        assertThat(Mailbox.beyondLastId(ALICE, 9, 4))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("cannot acknowledge up to 9 in the mailbox of alice: its ids run from 1 to its last id, 4");
    }

    @Test
    void the_configured_body_limit_is_checked_with_a_message_that_says_the_limit() {
        Limits limits = Limits.DEFAULTS.withMaxBodyLength(5);

        limits.checkBodyLength("12345");
        assertThatThrownBy(() -> limits.checkBodyLength("123456")).isInstanceOf(InvalidInputException.class)
                .hasMessage("message is 6 characters long; the limit is 5");
    }

    @Test
    void the_default_limits_are_the_documented_ones() {
        assertThat(Limits.DEFAULTS).isEqualTo(new Limits(4_096, 1_000, 10_000, 10_000,
                new PendingBudget(1_000, 1_048_576), new RateLimits(new RateLimit(20, Duration.ofSeconds(5)), new RateLimit(10, Duration.ofMinutes(1)),
                new RateLimit(30, Duration.ofMinutes(1)), new RateLimit(30, Duration.ofMinutes(1)))));
    }

    @Test
    void every_limit_is_at_least_one() {
        assertThat(new Limits(1, 1, 1, 1, PendingBudget.DEFAULTS, RateLimits.DEFAULTS)).isEqualTo(Limits.DEFAULTS.withMaxBodyLength(1).withMaxMembers(1)
                .withMaxRetained(1).withMailboxCapacity(1));
        assertThatThrownBy(() -> Limits.DEFAULTS.withMaxBodyLength(0)).hasMessageContaining("maxBodyLength");
        assertThatThrownBy(() -> Limits.DEFAULTS.withMaxMembers(0)).hasMessageContaining("maxMembers");
        assertThatThrownBy(() -> Limits.DEFAULTS.withMaxRetained(0)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("maxRetained");
        assertThatThrownBy(() -> Limits.DEFAULTS.withMailboxCapacity(-1)).hasMessageContaining("mailboxCapacity");
    }

    @Test
    void values_print_as_their_plain_text_so_messages_read_naturally() {
        assertThat(UserId.of("alice")).hasToString("alice");
        assertThat(ChatId.of("lunch")).hasToString("lunch");
        assertThat(LockName.of("presence-prune")).hasToString("presence-prune");
        assertThat(IdempotencyKey.of("retry-1")).hasToString("retry-1");
        assertThat(Channel.ofChat(ChatId.of("lunch"))).hasToString("chat:lunch");
        assertThat(ChannelPattern.ALL_CHATS).hasToString("chat:*");
    }

    @Test
    void every_kind_of_id_keeps_to_the_one_rule_for_ids() {
        assertThatThrownBy(() -> LockName.of("a b")).isInstanceOf(InvalidIdException.class).hasMessageContaining("lock name");
        assertThatThrownBy(() -> IdempotencyKey.of("a:b")).isInstanceOf(InvalidIdException.class)
                .hasMessageContaining("idempotency key");
        assertThatThrownBy(() -> ChatId.of("{x}")).isInstanceOf(InvalidIdException.class).hasMessageContaining("chat id");
    }

    @Test
    void the_pattern_of_every_chat_matches_chat_channels_and_nothing_else() {
        assertThat(ChannelPattern.ALL_CHATS.matches(Channel.ofChat(ChatId.of("lunch")))).isTrue();
        assertThat(ChannelPattern.ALL_CHATS.matches(Channel.PRESENCE)).isFalse();
        assertThat(new ChannelPattern("chat:*x").matches(Channel.ofChat(ChatId.of("lunch"))))
                .as("a star that no rest of the name completes").isFalse();
    }

    @Test
    void an_id_far_too_long_is_shown_cut_short_in_the_refusal() {
        String tooLong = "a".repeat(81);
        String justShownWhole = "a".repeat(79) + "!";

        assertThatThrownBy(() -> UserId.of(tooLong)).hasMessageContaining("'" + "a".repeat(80) + "…'");
        assertThatThrownBy(() -> UserId.of(justShownWhole)).hasMessageContaining("'" + justShownWhole + "'");
    }

    @Test
    void unread_is_the_distance_from_cursor_to_last_id() {
        ChatSummary summary = new ChatSummary(ChatId.of("827"), Set.of(ALICE), Access.PRIVATE, 5, 6);

        assertThat(summary.unread()).isEqualTo(1);
    }

    @Test
    void a_pending_chat_cannot_claim_fewer_unread_than_it_returns() {
        Message one = new Message(1, NOW, ALICE, "hi");

        assertThatThrownBy(() -> new PendingChat(ChatId.of("1"), List.of(one), 0, false, 1, false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void domain_rejections_are_cheap_and_carry_no_stack_trace() {
        assertThat(new NotAMemberException(ALICE, ChatId.of("1")).getStackTrace()).isEmpty();
        assertThat(new StoreUnavailableException("down", new RuntimeException()).getStackTrace()).isNotEmpty();
    }

    @Test
    void a_write_not_confirmed_durable_carries_the_id_of_the_message_it_created_if_it_created_one() {
        assertThat(new NotDurableException("one copy", OptionalLong.of(7)).messageId()).hasValue(7);
        assertThat(new NotDurableException("one copy", OptionalLong.empty()).messageId()).isEmpty();
    }

    @Test
    void a_time_kept_to_the_millisecond_passes_its_check_as_it_is() {
        Instant whole = NOW.plusMillis(1);

        assertThat(MillisecondClock.requireMillis(whole, "a time")).isEqualTo(whole);
        assertThatThrownBy(() -> MillisecondClock.requireMillis(whole.plusNanos(1), "a time"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_generated_chat_id_is_22_characters_of_62_and_never_the_same_twice() {
        Set<ChatId> drawn = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            ChatId id = ChatId.random();
            assertThat(id.value()).matches("[0-9A-Za-z]{22}");
            assertThat(drawn.add(id)).as("%s drawn twice", id).isTrue();
        }
    }
}
