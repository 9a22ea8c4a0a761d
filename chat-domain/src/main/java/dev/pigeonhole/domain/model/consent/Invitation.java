package dev.pigeonhole.domain.model.consent;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.UserId;

import java.time.Instant;
import java.util.Objects;

/**
 * An add that the invitee's {@link AddPolicy} did not let through: it waits, unseen by the inviter,
 * until the invitee accepts, declines, blocks the inviter, or it expires.
 *
 * @param joinPoint the chat's last id when the invitation was made: accepting joins there, so the
 *                  message that came with it, and what was said while it waited, is readable, and
 *                  nothing from before
 * @param members   how many members the chat had then, to help the invitee decide
 */
public record Invitation(ChatId chat, UserId inviter, long joinPoint, int members, Instant at) {

    public Invitation {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(inviter, "inviter");
        MillisecondClock.requireMillis(at, "an invitation's time");
        if (joinPoint < 0 || members < 0) {
            throw new IllegalArgumentException("an invitation's join point and member count are not negative");
        }
    }
}
