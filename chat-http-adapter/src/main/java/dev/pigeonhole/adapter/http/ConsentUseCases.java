package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.port.in.consent.AcceptInvitation;
import dev.pigeonhole.domain.port.in.consent.BlockUsers;
import dev.pigeonhole.domain.port.in.consent.ChooseAddPolicy;
import dev.pigeonhole.domain.port.in.consent.DeclineInvitation;
import dev.pigeonhole.domain.port.in.consent.ListInvitations;

/** The consent chapter's driving ports: invitations, blocks, and who may add whom. */
public record ConsentUseCases(
        ListInvitations listInvitations,
        AcceptInvitation acceptInvitation,
        DeclineInvitation declineInvitation,
        BlockUsers blockUsers,
        ChooseAddPolicy chooseAddPolicy) {
}
