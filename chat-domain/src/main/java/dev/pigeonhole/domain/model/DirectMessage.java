package dev.pigeonhole.domain.model;

import java.time.Instant;
import java.util.Objects;

/** A message in one user's mailbox. It has no id: the mailbox's order is its identity. */
public record DirectMessage(Instant sentAt, UserId sender, String body) {

    public DirectMessage {
        Objects.requireNonNull(sentAt, "sentAt");
        Objects.requireNonNull(sender, "sender");
        MessageText.check(body);
    }
}
