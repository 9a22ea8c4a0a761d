package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.model.mailbox.Mailbox;
import dev.pigeonhole.domain.model.mailbox.Sender;

import java.time.Instant;
import java.util.List;

/**
 * One mailbox per user (Redis in Action 6.5.1). The rules are the domain's {@link Mailbox}
 * aggregate's; a store keeps mailboxes and applies them, each method atomically on its own: the
 * in-memory store runs the aggregate under a lock per owner, the PostgreSQL store under the owner's
 * locked row, and the Redis store runs {@code lua/mailbox.lua}, a transliteration of it, in one
 * script. The contracts in chat-port-tck check every promise below against every store, and run
 * random operations against the aggregate and each store side by side
 * ({@code MailboxesDifferentialContract}).
 *
 * <p>Callers pass what the {@code port.in} commands have already checked, and times to the
 * millisecond; a store does not check them again. Any method may throw
 * {@link dev.pigeonhole.domain.model.StoreUnavailableException}.
 */
public interface Mailboxes {

    /**
     * {@link Mailbox#deliver}: appends to the recipient's mailbox with its next id, and announces
     * the message on the recipient's own channel ({@link Channel#ofUser},
     * {@link LiveEvent#announcing(Delivered)}) inside the same step, as a chat announces a send: so a
     * mailbox's messages go out in id order, and a store that can publish from its atomic step needs
     * no second round trip.
     *
     * <p>A store keeps which of the messages it holds came from strangers with them, and forgets
     * that as it drops them ({@link Mailbox#strangersShare}).
     *
     * @param from whether the sender shares a chat with the recipient
     * @throws RateLimitedException ({@link Mailbox#strangerRefused}) if a stranger's delivery finds
     *                              the strangers' share taken or the mailbox full; nothing changes
     * @throws MailboxFullException if the mailbox is at capacity; nothing is stored, numbered or announced
     */
    Delivered deliver(UserId recipient, UserId sender, String body, Instant at, Sender from);

    /** A delivery from someone who shares a chat with the recipient. */
    default Delivered deliver(UserId recipient, UserId sender, String body, Instant at) {
        return deliver(recipient, sender, body, at, Sender.CO_MEMBER);
    }

    /**
     * {@link Mailbox#read}: up to {@code max} of the oldest messages, oldest first, without
     * removing any: two devices reading at once both get them. {@code max} is at least 1.
     */
    List<DirectMessage> read(UserId owner, int max);

    /**
     * {@link Mailbox#acknowledge}: removes every message whose id is {@code upTo} or less, in one
     * step; ids already removed are no news, so acknowledging again, or an older id, changes
     * nothing.
     *
     * @throws InvalidInputException ({@link Mailbox#beyondLastId}) if {@code upTo} is above the last
     *                               id the mailbox handed out; nothing is removed
     */
    void acknowledge(UserId owner, long upTo);
}
