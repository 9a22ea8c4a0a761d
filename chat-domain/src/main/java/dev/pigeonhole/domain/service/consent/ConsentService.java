package dev.pigeonhole.domain.service.consent;

import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.Consent;
import dev.pigeonhole.domain.model.consent.Invitation;
import dev.pigeonhole.domain.port.in.consent.BlockUsers;
import dev.pigeonhole.domain.port.in.consent.ChooseAddPolicy;
import dev.pigeonhole.domain.port.in.consent.DeclineInvitation;
import dev.pigeonhole.domain.port.in.consent.ListInvitations;
import dev.pigeonhole.domain.service.Acquaintances;

import java.time.InstantSource;
import java.util.List;
import java.util.Objects;

/**
 * What a user says about who reaches it: its add policy, its blocks, its answer to an invitation
 * it turns down. Accepting one is joining a chat, which the chat service does. The rules are the
 * {@link Consent} aggregate's.
 */
public final class ConsentService implements ListInvitations, DeclineInvitation, BlockUsers, ChooseAddPolicy {

    private final Acquaintances acquaintances;
    private final MillisecondClock clock;

    public ConsentService(Acquaintances acquaintances, InstantSource clock) {
        this.acquaintances = Objects.requireNonNull(acquaintances, "acquaintances");
        // Read to the millisecond here, once: every store keeps times so.
        this.clock = MillisecondClock.of(clock);
    }

    @Override
    public List<Invitation> invitations(UserId user) {
        return acquaintances.consentOf(user).pending(clock.instant());
    }

    @Override
    public void decline(DeclineInvitation.Command command) {
        acquaintances.change(command.user(), consent -> {
            consent.decline(command.chat(), clock.instant());
            return null;
        });
    }

    @Override
    public void block(BlockUsers.Command command) {
        acquaintances.change(command.user(), consent -> {
            consent.block(command.blocked());
            return null;
        });
    }

    @Override
    public void unblock(BlockUsers.Command command) {
        acquaintances.change(command.user(), consent -> {
            consent.unblock(command.blocked());
            return null;
        });
    }

    @Override
    public List<UserId> blocked(UserId user) {
        return acquaintances.consentOf(user).blocked();
    }

    @Override
    public void choose(ChooseAddPolicy.Command command) {
        acquaintances.change(command.user(), consent -> {
            consent.choose(command.policy());
            return null;
        });
    }

    @Override
    public AddPolicy policyOf(UserId user) {
        return acquaintances.consentOf(user).policy();
    }
}
