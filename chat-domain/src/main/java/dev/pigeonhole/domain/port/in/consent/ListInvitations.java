package dev.pigeonhole.domain.port.in.consent;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.Invitation;

import java.util.List;

/** The invitations waiting for a user's answer, newest first. */
public interface ListInvitations {

    List<Invitation> invitations(UserId user);
}
