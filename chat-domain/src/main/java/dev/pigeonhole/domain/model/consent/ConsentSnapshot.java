package dev.pigeonhole.domain.model.consent;

import dev.pigeonhole.domain.model.UserId;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a {@link Consent} holds, as plain values: what a store keeps and hands back
 * ({@link Consent#restore}). The aggregate still decides everything.
 *
 * @param chosen      the add policy the user chose, or empty for the server's default
 * @param blocked     the users it blocked, in {@link UserId} order
 * @param invitations its pending invitations, oldest first, at most one per chat
 */
public record ConsentSnapshot(UserId owner, Optional<AddPolicy> chosen, List<UserId> blocked,
                              List<Invitation> invitations) {

    public ConsentSnapshot {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(chosen, "chosen");
        blocked = List.copyOf(blocked);
        invitations = List.copyOf(invitations);
    }

    /** What a user who never chose, blocked or was invited to anything holds. */
    public static ConsentSnapshot empty(UserId owner) {
        return new ConsentSnapshot(owner, Optional.empty(), List.of(), List.of());
    }
}
