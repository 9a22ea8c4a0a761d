package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.DirectMessage;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.UserId;

import java.util.List;

/**
 * One mailbox per user (Redis in Action 6.5.1): senders append, the owner takes. A client that
 * is offline for days loses nothing, up to the mailbox's capacity.
 */
public interface Mailboxes {

    /**
     * Appends to the recipient's mailbox.
     *
     * @return how many messages the mailbox holds with this one, for monitoring its depth
     * @throws MailboxFullException if the mailbox is at capacity; the message is not stored
     */
    int deliver(UserId recipient, DirectMessage message);

    /**
     * Removes and returns up to {@code max} of the oldest messages, atomically: two takers never
     * receive the same message, and none is lost between them. {@code max} is at least 1: the
     * command checked it, and a store does not check it again.
     */
    List<DirectMessage> take(UserId owner, int max);
}
