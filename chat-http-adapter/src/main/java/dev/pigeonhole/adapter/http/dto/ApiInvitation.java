package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.consent.Invitation;

/**
 * An invitation waiting for the user's answer: which chat, from whom, how many are in it, since
 * when. Its join point stays on the server: accepting is what reads from it.
 */
public record ApiInvitation(String chatId, String inviter, int members, String invitedAt) {

    public static ApiInvitation from(Invitation invitation) {
        return new ApiInvitation(invitation.chat().value(), invitation.inviter().value(), invitation.members(),
                ApiMessage.timestamp(invitation.at()));
    }
}
