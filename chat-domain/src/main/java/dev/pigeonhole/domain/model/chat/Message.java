package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MessageText;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.UserId;

import java.time.Instant;
import java.util.Objects;

/**
 * One message of a group chat. {@code id} is its place in the chat: 1, 2, 3… with no gaps, which
 * is what lets a member's cursor be a single number. Its time is to the millisecond, as every store
 * keeps it.
 */
public record Message(long id, Instant sentAt, UserId sender, String body) {

    public Message {
        if (id < 1) {
            throw new InvalidInputException("a message id starts at 1, not " + id);
        }
        MillisecondClock.requireMillis(sentAt, "sentAt");
        Objects.requireNonNull(sender, "sender");
        MessageText.checkKept(body);
    }
}
