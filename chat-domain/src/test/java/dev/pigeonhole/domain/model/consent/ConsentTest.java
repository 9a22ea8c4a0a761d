package dev.pigeonhole.domain.model.consent;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.NoInvitationException;
import dev.pigeonhole.domain.model.UserId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ConsentTest {

    private static final UserId CASEY = UserId.of("casey");
    private static final UserId STALKER = UserId.of("stalker");
    private static final UserId FRIEND = UserId.of("friend");
    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
    private static final ConsentLimits LIMITS = ConsentLimits.DEFAULTS.withMaxInvitations(3);

    private final Consent consent = Consent.restore(ConsentSnapshot.empty(CASEY), LIMITS);

    private static Invitation invitation(String chat, UserId inviter, Instant at) {
        return new Invitation(ChatId.of(chat), inviter, 0, 2, at);
    }

    @Test
    void is_the_say_of_the_user_it_was_kept_for() {
        assertThat(Consent.restore(ConsentSnapshot.empty(FRIEND), LIMITS).owner()).isEqualTo(FRIEND);
        assertThat(consent.owner()).isEqualTo(CASEY);
    }

    @Nested
    class AddingDirectly {

        @Test
        void a_user_who_chose_nothing_lets_only_co_members_add_it() {
            assertThat(consent.policy()).isEqualTo(AddPolicy.CO_MEMBERS);
            assertThat(consent.admitsDirectly(FRIEND, true)).isTrue();
            assertThat(consent.admitsDirectly(STALKER, false)).isFalse();
        }

        @Test
        void a_user_who_lets_anyone_add_it_still_never_lets_in_someone_it_blocked() {
            consent.choose(AddPolicy.ANYONE);
            consent.block(STALKER);

            assertThat(consent.admitsDirectly(UserId.of("anyone"), false)).isTrue();
            assertThat(consent.admitsDirectly(STALKER, true)).isFalse();
        }

        @Test
        void the_servers_default_is_whatever_it_was_configured_to() {
            Consent book = Consent.restore(ConsentSnapshot.empty(CASEY), LIMITS.withDefaultPolicy(AddPolicy.ANYONE));

            assertThat(book.policy()).isEqualTo(AddPolicy.ANYONE);
            assertThat(book.snapshot().chosen()).as("a default is not a choice").isEmpty();
        }
    }

    @Nested
    class Invitations {

        @Test
        void wait_newest_first_one_per_chat_keeping_the_first() {
            assertThat(consent.invite(invitation("a", FRIEND, T0), T0)).isTrue();
            assertThat(consent.invite(invitation("b", STALKER, T0.plusMillis(1)), T0)).isTrue();
            assertThat(consent.invite(new Invitation(ChatId.of("a"), STALKER, 9, 2, T0.plusMillis(2)), T0))
                    .as("a second invitation to a chat already pending").isFalse();

            assertThat(consent.pending(T0.plusMillis(3))).extracting(Invitation::chat)
                    .containsExactly(ChatId.of("b"), ChatId.of("a"));
            assertThat(consent.invitationTo(ChatId.of("a"), T0).inviter()).isEqualTo(FRIEND);
        }

        @Test
        void past_the_limit_the_oldest_goes() {
            IntStream.range(0, 5).forEach(i -> consent.invite(invitation("chat-" + i, STALKER, T0.plusMillis(i)), T0));

            assertThat(consent.pending(T0.plusSeconds(1))).extracting(invitation -> invitation.chat().value())
                    .containsExactly("chat-4", "chat-3", "chat-2");
        }

        @Test
        void lapse_after_their_lifetime() {
            consent.invite(invitation("old", STALKER, T0), T0);
            Instant lapsed = T0.plus(LIMITS.invitationLifetime());

            assertThat(consent.pending(lapsed.minusMillis(1))).hasSize(1);
            assertThat(consent.pending(lapsed)).isEmpty();
            assertThatExceptionOfType(NoInvitationException.class)
                    .isThrownBy(() -> consent.invitationTo(ChatId.of("old"), lapsed));
        }

        @Test
        void a_lapsed_one_makes_way_for_a_fresh_invitation_to_the_same_chat() {
            consent.invite(invitation("a", STALKER, T0), T0);
            Instant lapsed = T0.plus(LIMITS.invitationLifetime());
            Invitation fresh = invitation("a", FRIEND, lapsed);

            assertThat(consent.invite(fresh, lapsed)).isTrue();
            assertThat(consent.invitationTo(ChatId.of("a"), lapsed)).isEqualTo(fresh);
            assertThat(consent.snapshot().invitations()).as("the lapsed one is let go of").containsExactly(fresh);
        }

        @Test
        void once_one_is_forgotten_the_others_still_wait() {
            consent.invite(invitation("a", STALKER, T0), T0);
            consent.invite(invitation("b", FRIEND, T0.plusMillis(1)), T0);

            consent.forget(ChatId.of("a"));

            assertThat(consent.pending(T0)).extracting(Invitation::chat).containsExactly(ChatId.of("b"));
        }

        @Test
        void kept_in_any_order_are_still_pending_newest_first_and_the_oldest_goes_first() {
            Invitation oldest = invitation("a", FRIEND, T0);
            Invitation middle = invitation("b", FRIEND, T0.plusMillis(1));
            Invitation newest = invitation("c", FRIEND, T0.plusMillis(2));
            Consent kept = Consent.restore(new ConsentSnapshot(CASEY, Optional.empty(), List.of(),
                    List.of(middle, newest, oldest)), LIMITS);

            assertThat(kept.pending(T0)).containsExactly(newest, middle, oldest);
            kept.invite(invitation("d", FRIEND, T0.plusMillis(3)), T0);
            assertThat(kept.pending(T0)).extracting(invitation -> invitation.chat().value())
                    .containsExactly("d", "c", "b");
        }

        @Test
        void may_come_from_a_chat_at_its_very_start_but_never_name_a_negative_point_or_count() {
            Invitation earliest = new Invitation(ChatId.of("a"), FRIEND, 0, 0, T0);

            assertThat(earliest.joinPoint()).isZero();
            assertThat(earliest.members()).isZero();
            assertThatExceptionOfType(IllegalArgumentException.class)
                    .isThrownBy(() -> new Invitation(ChatId.of("a"), FRIEND, -1, 2, T0));
            assertThatExceptionOfType(IllegalArgumentException.class)
                    .isThrownBy(() -> new Invitation(ChatId.of("a"), FRIEND, 0, -1, T0));
        }

        @Test
        void from_someone_blocked_are_dropped_without_a_word() {
            consent.block(STALKER);

            assertThat(consent.invite(invitation("x", STALKER, T0), T0)).isFalse();
            assertThat(consent.pending(T0)).isEmpty();
        }

        @Test
        void vanish_when_their_inviter_is_blocked() {
            consent.invite(invitation("x", STALKER, T0), T0);
            consent.invite(invitation("y", FRIEND, T0), T0);

            consent.block(STALKER);

            assertThat(consent.pending(T0)).extracting(Invitation::inviter).containsExactly(FRIEND);
        }

        @Test
        void once_declined_are_gone_and_a_second_decline_is_refused() {
            consent.invite(invitation("x", STALKER, T0), T0);

            consent.decline(ChatId.of("x"), T0);

            assertThat(consent.pending(T0)).isEmpty();
            assertThatExceptionOfType(NoInvitationException.class).isThrownBy(() -> consent.decline(ChatId.of("x"), T0));
        }

        @Test
        void from_oneself_are_not_held() {
            assertThat(consent.invite(invitation("x", CASEY, T0), T0)).isFalse();
        }
    }

    @Nested
    class Blocks {

        @Test
        void are_bounded_and_never_of_oneself() {
            Consent few = Consent.restore(ConsentSnapshot.empty(CASEY),
                    new ConsentLimits(AddPolicy.CO_MEMBERS, 3, Duration.ofDays(1), 2, 10));
            few.block(STALKER);
            few.block(FRIEND);
            few.block(FRIEND);

            assertThatExceptionOfType(InvalidInputException.class).isThrownBy(() -> few.block(UserId.of("third")));
            assertThatExceptionOfType(InvalidInputException.class).isThrownBy(() -> few.block(CASEY));
            few.unblock(FRIEND);
            few.block(UserId.of("third"));
            assertThat(few.blocked()).containsExactly(STALKER, UserId.of("third"));
        }

        @Test
        void survive_a_snapshot_with_everything_else() {
            consent.choose(AddPolicy.ANYONE);
            consent.block(STALKER);
            consent.invite(invitation("x", FRIEND, T0), T0);

            Consent restored = Consent.restore(consent.snapshot(), LIMITS);

            assertThat(restored.snapshot()).isEqualTo(consent.snapshot());
            assertThat(restored.blocks(STALKER)).isTrue();
        }
    }
}
