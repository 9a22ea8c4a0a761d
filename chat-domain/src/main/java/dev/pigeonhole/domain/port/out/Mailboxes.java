package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;

import java.time.Instant;
import java.util.List;

/**
 * One mailbox per user (Redis in Action 6.5.1): senders append, the owner reads and then
 * acknowledges what it has. Reading removes nothing, so an answer lost on its way loses nothing:
 * the owner reads the same messages again (at-least-once, like a chat's pending). A client that is
 * offline for days loses nothing either, up to the mailbox's capacity.
 *
 * <p>Each mailbox numbers its messages 1, 2, 3… and never hands an id out twice, even once it has
 * been emptied: what the owner acknowledged stays acknowledged.
 */
public interface Mailboxes {

    /**
     * Appends to the recipient's mailbox with its next id, and announces the message on the
     * recipient's own channel ({@link Channel#ofUser}, {@link Delivered#event()}) inside the same
     * step, as a chat announces a send: so a mailbox's messages go out in id order, and a store
     * that can publish from its atomic step needs no second round trip.
     *
     * @throws MailboxFullException if the mailbox is at capacity; nothing is stored, numbered or announced
     */
    Delivered deliver(UserId recipient, UserId sender, String body, Instant at);

    /**
     * Up to {@code max} of the oldest messages, oldest first, without removing any: two devices
     * reading at once both get them. {@code max} is at least 1: the command checked it, and a store
     * does not check it again.
     */
    List<DirectMessage> read(UserId owner, int max);

    /**
     * Removes every message whose id is {@code upTo} or less, in one step; ids already removed are
     * no news, so acknowledging again, or an older id, changes nothing.
     *
     * @throws InvalidInputException ({@link DirectMessage#beyondLastId}) if {@code upTo} is above
     *                               the last id the mailbox handed out; nothing is removed
     */
    void acknowledge(UserId owner, long upTo);
}
