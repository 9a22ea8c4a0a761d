package dev.pigeonhole.domain.model.mailbox;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One user's mailbox (Redis in Action 6.5.1): the aggregate in which every mailbox rule is written
 * once. Senders append; the owner reads the oldest messages, which stay until it acknowledges
 * them, so an answer lost on its way loses nothing (at-least-once, like a chat's pending).
 *
 * <p>It holds two numbers: the last id handed out and how far the owner has acknowledged. Ids run
 * 1, 2, 3… per owner and are never handed out twice, not even once the mailbox has been emptied,
 * and acknowledging drops a prefix of them, so what the mailbox holds is always the one run of ids
 * above {@link #acknowledged()} up to {@link #lastId()}, and its depth is the difference. It holds
 * no message text, which its store keeps beside it ({@link MailboxLog}).
 *
 * <p>A store applies it under whatever makes one operation atomic (a lock per owner, a locked
 * row). Redis cannot run Java inside its atomic step, so {@code lua/mailbox.lua} transliterates
 * these methods step by step under the same names ({@code checkRoom} is {@code check_room}); the
 * contract suite runs random operations against this class and every store side by side.
 *
 * <p>Not thread-safe: a store runs one operation on a mailbox at a time.
 */
public final class Mailbox {

    private final UserId owner;
    private final int capacity;
    private long lastId;
    private long acknowledged;

    /** A mailbox nothing was ever delivered to: every user has one, until its first message. */
    public Mailbox(UserId owner, Limits limits) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.capacity = limits.mailboxCapacity();
    }

    /** A mailbox as a store kept it ({@link #snapshot}). */
    public static Mailbox restore(MailboxSnapshot kept, Limits limits) {
        Mailbox mailbox = new Mailbox(kept.owner(), limits);
        mailbox.lastId = kept.lastId();
        mailbox.acknowledged = kept.acknowledged();
        return mailbox;
    }

    /** The two numbers it holds, for a store that keeps mailboxes in rows. */
    public MailboxSnapshot snapshot() {
        return new MailboxSnapshot(owner, lastId, acknowledged);
    }

    public UserId owner() {
        return owner;
    }

    /** The last id handed out; 0 before the first delivery. */
    public long lastId() {
        return lastId;
    }

    /** Every id up to this one is acknowledged and no longer held; 0 before the first acknowledgement. */
    public long acknowledged() {
        return acknowledged;
    }

    /** How many messages it holds: those above {@link #acknowledged()}. */
    public int depth() {
        return Math.toIntExact(lastId - acknowledged);
    }

    /**
     * Appends a message under the next id. A refused delivery takes no id, so the ids a mailbox
     * holds run without a gap.
     *
     * @return the message as stored, and the depth with it (for monitoring only, see {@link Delivered})
     * @throws MailboxFullException if it holds as many messages as its capacity; nothing changed
     */
    public Delivered deliver(UserId sender, String body, Instant at) {
        MillisecondClock.requireMillis(at, "a delivery's time");
        checkRoom();
        DirectMessage message = new DirectMessage(nextId(), at, sender, body);
        return new Delivered(owner, message, depth());
    }

    /** Up to {@code max} of the oldest messages it holds, oldest first. Changes nothing. */
    public List<DirectMessage> read(int max, MailboxLog log) {
        return log.after(acknowledged, max);
    }

    /**
     * Lets go of every message up to {@code upTo}. Forward only: an id acknowledged before, or an
     * older one, changes nothing, so two devices acknowledging at once cannot bring a message
     * back.
     *
     * @return how far the mailbox is acknowledged afterwards: its store drops every message up to it
     * @throws InvalidInputException if {@code upTo} is above the last id handed out; nothing changed
     */
    public long acknowledge(long upTo) {
        checkUpTo(upTo);
        trimAcknowledged(upTo);
        return acknowledged;
    }

    /** The refusal of an acknowledgement past the last id a mailbox handed out, worded once for every store. */
    public static InvalidInputException beyondLastId(UserId owner, long upTo, long lastId) {
        return new InvalidInputException("cannot acknowledge up to " + upTo + " in the mailbox of " + owner
                + ": its ids run from 1 to its last id, " + lastId);
    }

    // ------------------------------------------------------------ the steps, named as the script names them

    private void checkRoom() {
        if (depth() >= capacity) {
            throw new MailboxFullException(owner, capacity);
        }
    }

    private long nextId() {
        return ++lastId;
    }

    private void checkUpTo(long upTo) {
        if (upTo > lastId) {
            throw beyondLastId(owner, upTo, lastId);
        }
    }

    private void trimAcknowledged(long upTo) {
        acknowledged = Math.max(acknowledged, upTo);
    }
}
