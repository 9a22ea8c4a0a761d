package dev.pigeonhole.domain.model.mailbox;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MessageText;
import dev.pigeonhole.domain.model.UserId;

import java.time.Instant;
import java.util.Objects;

/**
 * A message in one user's mailbox. {@code id} is its place in that mailbox: 1, 2, 3… per owner,
 * never handed out twice, even once the mailbox has been emptied, which is what lets the owner
 * acknowledge everything up to one id.
 */
public record DirectMessage(long id, Instant sentAt, UserId sender, String body) {

    public DirectMessage {
        if (id < 1) {
            throw new InvalidInputException("a direct message id starts at 1, not " + id);
        }
        Objects.requireNonNull(sentAt, "sentAt");
        Objects.requireNonNull(sender, "sender");
        MessageText.check(body);
    }

    /** The refusal of an acknowledgement past the last id a mailbox handed out, worded once for every store. */
    public static InvalidInputException beyondLastId(UserId owner, long upTo, long lastId) {
        return new InvalidInputException("cannot acknowledge up to " + upTo + " in the mailbox of " + owner
                + ": its ids run from 1 to its last id, " + lastId);
    }
}
