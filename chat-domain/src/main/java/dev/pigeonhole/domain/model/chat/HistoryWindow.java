package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;

import java.util.List;

/**
 * Where a chat's history stands: ids 1 to {@code lastId} were handed out, and
 * {@code firstAvailableId} to {@code lastId} are still held. Retention and acknowledgement only
 * ever drop the oldest messages, so what is held is always this one run of ids, and every
 * question a reader asks of it is a subtraction or a comparison. This is the one place those are
 * worked out; each store builds what a reader sees through it, whatever it keeps the ids in.
 *
 * @param firstAvailableId the oldest id still held, or {@code lastId + 1} when nothing is
 * @param lastId           the newest id handed out, 0 before the first message
 */
public record HistoryWindow(long firstAvailableId, long lastId) {

    public HistoryWindow {
        if (lastId < 0 || firstAvailableId < 1 || firstAvailableId > lastId + 1) {
            throw new IllegalArgumentException("a history holds ids " + firstAvailableId + ".." + lastId
                    + ", which is not a run within 1.." + lastId);
        }
    }

    /**
     * The window as a member who joined at {@code joinPoint} sees it: what was sent at or before
     * its joining is not its to read, so its history starts after the join point at the earliest.
     */
    public HistoryWindow joinedAt(long joinPoint) {
        return new HistoryWindow(Math.max(firstAvailableId, joinPoint + 1), lastId);
    }

    /** How many messages came after {@code cursor}; ids have no gaps, so this is a subtraction. */
    public static long unread(long cursor, long lastId) {
        return Math.max(0, lastId - cursor);
    }

    public long unreadAfter(long cursor) {
        return unread(cursor, lastId);
    }

    /**
     * True when the message right after {@code after} is gone for good: someone reading on from
     * there has missed what lies between. Never true past the last id, since nothing is missing
     * there: {@code firstAvailableId} is at most {@code lastId + 1}.
     */
    public boolean gapAfter(long after) {
        return after + 1 < firstAvailableId;
    }

    /**
     * A member's pending messages, from the page a store read above its cursor: more follow when
     * the page stops short of the last id.
     */
    public PendingChat pending(ChatId chat, long cursor, List<Message> page) {
        long readUpTo = page.isEmpty() ? cursor : page.getLast().id();
        return new PendingChat(chat, page, unreadAfter(cursor), gapAfter(cursor), firstAvailableId, readUpTo < lastId);
    }

    /** A page of history, from what a store read above {@code after}. */
    public MessagePage page(long after, List<Message> page) {
        return new MessagePage(page, gapAfter(after), firstAvailableId, lastId);
    }
}
