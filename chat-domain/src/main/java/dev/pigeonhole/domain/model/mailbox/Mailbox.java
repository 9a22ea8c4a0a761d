package dev.pigeonhole.domain.model.mailbox;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

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
 * <p>It also holds which of those ids came from {@link Sender#STRANGER strangers}, senders sharing
 * no chat with the owner: together they may hold at most {@link #strangersShare} of it, so a crowd
 * of throwaway accounts cannot fill it and lock out the owner's friends. A stranger is refused
 * as a rate limit refuses, whether for its share or for a full mailbox, so no stranger learns how
 * full a mailbox is.
 *
 * <p>A store applies it under whatever makes one operation atomic (a lock per owner, a locked
 * row). Redis cannot run Java inside its atomic step, so {@code lua/mailbox.lua} transliterates
 * these methods step by step under the same names ({@code checkRoom} is {@code check_room}); the
 * contract suite runs random operations against this class and every store side by side.
 *
 * <p>Not thread-safe: a store runs one operation on a mailbox at a time.
 */
public final class Mailbox {

    /** When a refused stranger might try again: the owner reads at its own pace, so a guess. */
    private static final Duration STRANGER_RETRY = Duration.ofMinutes(1);

    private final UserId owner;
    private final int capacity;
    private long lastId;
    private long acknowledged;
    /** The ids held that strangers sent, ascending. */
    private final TreeSet<Long> fromStrangers = new TreeSet<>();

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
        mailbox.fromStrangers.addAll(kept.fromStrangers());
        return mailbox;
    }

    /** What it holds, for a store that keeps mailboxes in rows. */
    public MailboxSnapshot snapshot() {
        return new MailboxSnapshot(owner, lastId, acknowledged, List.copyOf(fromStrangers));
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
     * @param from whether the sender shares a chat with the owner, which the chats say
     * @return the message as stored, and the depth with it (for monitoring only, see {@link Delivered})
     * @throws RateLimitedException if a stranger's delivery finds the strangers' share taken, or
     *                              the mailbox full ({@link #strangerRefused}); nothing changed
     * @throws MailboxFullException if it holds as many messages as its capacity; nothing changed
     */
    public Delivered deliver(UserId sender, String body, Instant at, Sender from) {
        MillisecondClock.requireMillis(at, "a delivery's time");
        checkStranger(from);
        checkRoom();
        DirectMessage message = new DirectMessage(nextId(), at, sender, body);
        if (from == Sender.STRANGER) {
            fromStrangers.add(message.id());
        }
        return new Delivered(owner, message, depth());
    }

    /** How many messages strangers may have in a mailbox of this capacity at once: a tenth of it. */
    public static int strangersShare(int capacity) {
        return Math.max(1, capacity / 10);
    }

    /**
     * How a stranger is refused, worded once for every store: as a rate limit refuses, so it says
     * nothing of how full the mailbox is, and a blocked sender is answered the same way.
     */
    public static RateLimitedException strangerRefused(int capacity) {
        return new RateLimitedException("deliver", strangersShare(capacity)
                + " unread messages from senders who share no chat with the recipient", STRANGER_RETRY);
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

    private void checkStranger(Sender from) {
        if (from == Sender.STRANGER && (fromStrangers.size() >= strangersShare(capacity) || depth() >= capacity)) {
            throw strangerRefused(capacity);
        }
    }

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
        fromStrangers.headSet(acknowledged, true).clear();
    }
}
