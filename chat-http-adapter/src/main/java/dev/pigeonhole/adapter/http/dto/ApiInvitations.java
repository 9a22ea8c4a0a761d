package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.consent.Invitation;

import java.util.List;

/** The invitations waiting for the caller's answer, in the order the domain gives them: newest first. */
public record ApiInvitations(List<ApiInvitation> invitations) {

    public static ApiInvitations from(List<Invitation> pending) {
        return new ApiInvitations(pending.stream().map(ApiInvitation::from).toList());
    }
}
