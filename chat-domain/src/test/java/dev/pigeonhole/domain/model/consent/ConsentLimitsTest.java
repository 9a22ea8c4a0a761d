package dev.pigeonhole.domain.model.consent;

import dev.pigeonhole.domain.model.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The consent bounds a server is configured with, at their edges: each count is at least one and
 * an invitation lives at least a millisecond; and the add policy as configuration spells it.
 */
class ConsentLimitsTest {

    private static final ConsentLimits D = ConsentLimits.DEFAULTS;

    @Test
    void every_count_is_at_least_one() {
        assertThat(new ConsentLimits(AddPolicy.ANYONE, 1, Duration.ofMillis(1), 1, 1))
                .extracting(ConsentLimits::maxInvitations, ConsentLimits::maxBlocks, ConsentLimits::maxChatsPerUser)
                .containsExactly(1, 1, 1);
        assertThatExceptionOfType(InvalidInputException.class).isThrownBy(() -> D.withMaxInvitations(0))
                .withMessageContaining("maxInvitations");
        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> new ConsentLimits(AddPolicy.ANYONE, 1, Duration.ofDays(1), 0, 1))
                .withMessageContaining("maxBlocks");
        assertThatExceptionOfType(InvalidInputException.class).isThrownBy(() -> D.withMaxChatsPerUser(0))
                .withMessageContaining("maxChatsPerUser");
    }

    @Test
    void an_invitation_lives_at_least_a_millisecond() {
        assertThat(D.withInvitationLifetime(Duration.ofMillis(1)).invitationLifetime()).isEqualTo(Duration.ofMillis(1));
        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> D.withInvitationLifetime(Duration.ofNanos(999_999)));
    }

    @Test
    void each_with_changes_its_own_bound_only() {
        assertThat(D.withMaxInvitations(7)).isEqualTo(new ConsentLimits(D.defaultPolicy(), 7,
                D.invitationLifetime(), D.maxBlocks(), D.maxChatsPerUser()));
        assertThat(D.withInvitationLifetime(Duration.ofHours(1))).isEqualTo(new ConsentLimits(D.defaultPolicy(),
                D.maxInvitations(), Duration.ofHours(1), D.maxBlocks(), D.maxChatsPerUser()));
    }

    @Test
    void a_policy_is_read_by_its_label_whatever_the_case_and_spacing() {
        assertThat(AddPolicy.parse(" Co-Members ")).isEqualTo(AddPolicy.CO_MEMBERS);
        assertThat(AddPolicy.parse("anyone")).isEqualTo(AddPolicy.ANYONE);
        assertThat(AddPolicy.CO_MEMBERS.label()).isEqualTo("co-members");
        assertThat(AddPolicy.ANYONE).hasToString("anyone");
        assertThatExceptionOfType(InvalidInputException.class).isThrownBy(() -> AddPolicy.parse("friends"))
                .withMessage("add policy must be one of anyone, co-members, not 'friends'");
        assertThatExceptionOfType(InvalidInputException.class).isThrownBy(() -> AddPolicy.parse(null));
    }
}
