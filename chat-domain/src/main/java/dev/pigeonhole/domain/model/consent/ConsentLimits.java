package dev.pigeonhole.domain.model.consent;

import dev.pigeonhole.domain.model.InvalidInputException;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds on what others can make a user hold, and the add policy of a user who chose none.
 * {@link #DEFAULTS} are the values docs/DESIGN.md §3, "Consent" promises.
 *
 * @param defaultPolicy      the add policy of a user who never chose one
 * @param maxInvitations     pending invitations one user holds; a new one past it drops the oldest
 * @param invitationLifetime how long an invitation waits before it lapses
 * @param maxBlocks          users one user may block
 * @param maxChatsPerUser    chats one user may be a member of: a join or an accept past it is
 *                           refused, and someone adding the user past it invites instead
 */
public record ConsentLimits(AddPolicy defaultPolicy, int maxInvitations, Duration invitationLifetime, int maxBlocks,
                            int maxChatsPerUser) {

    public static final ConsentLimits DEFAULTS = new ConsentLimits(AddPolicy.CO_MEMBERS, 100, Duration.ofDays(7),
            1_000, 1_000);

    public ConsentLimits {
        Objects.requireNonNull(defaultPolicy, "defaultPolicy");
        Objects.requireNonNull(invitationLifetime, "invitationLifetime");
        positive("maxInvitations", maxInvitations);
        positive("maxBlocks", maxBlocks);
        positive("maxChatsPerUser", maxChatsPerUser);
        if (invitationLifetime.toMillis() < 1) {
            throw new InvalidInputException("invitationLifetime must be at least 1 ms, not " + invitationLifetime);
        }
    }

    public ConsentLimits withDefaultPolicy(AddPolicy value) {
        return new ConsentLimits(value, maxInvitations, invitationLifetime, maxBlocks, maxChatsPerUser);
    }

    public ConsentLimits withMaxInvitations(int value) {
        return new ConsentLimits(defaultPolicy, value, invitationLifetime, maxBlocks, maxChatsPerUser);
    }

    public ConsentLimits withInvitationLifetime(Duration value) {
        return new ConsentLimits(defaultPolicy, maxInvitations, value, maxBlocks, maxChatsPerUser);
    }

    public ConsentLimits withMaxChatsPerUser(int value) {
        return new ConsentLimits(defaultPolicy, maxInvitations, invitationLifetime, maxBlocks, value);
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new InvalidInputException(name + " must be at least 1, not " + value);
        }
    }
}
