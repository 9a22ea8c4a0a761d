package dev.pigeonhole.domain.model.mailbox;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MessageText;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.UserId;

import java.time.Instant;
import java.util.Objects;

/**
 * A message in one user's mailbox. {@code id} is its place in that mailbox: 1, 2, 3… per owner,
 * never handed out twice, even once the mailbox has been emptied, which is what lets the owner
 * acknowledge everything up to one id. Its time is to the millisecond, as every store keeps it.
 */
public record DirectMessage(long id, Instant sentAt, UserId sender, String body) {

    public DirectMessage {
        if (id < 1) {
            throw new InvalidInputException("a direct message id starts at 1, not " + id);
        }
        MillisecondClock.requireMillis(sentAt, "sentAt");
        Objects.requireNonNull(sender, "sender");
        MessageText.checkKept(body);
    }
}
