package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;

/**
 * The ids one chat gives its messages: the last one handed out and the oldest one still held.
 *
 * <p>Ids run 1, 2, 3… with no gaps, so what a member has not read is everything above its cursor,
 * and what every member has read is everything up to the lowest cursor: that much may be dropped,
 * and so may whatever is older than the retention limit allows. Both only ever move the oldest
 * held id up, so what is held is always one run of ids, {@link HistoryWindow}, and a store drops
 * every message below it.
 *
 * <p>Part of a {@link Chat}, which its store guards; not thread-safe.
 */
final class MessageIds {

    private long lastId;
    /** The oldest id still held; when nothing is held, lastId + 1, the id the next message gets. */
    private long firstAvailableId = 1;

    long last() {
        return lastId;
    }

    /** The oldest id still held; when nothing is held, the id the next message gets. */
    long firstAvailable() {
        return firstAvailableId;
    }

    /** Hands out the id after the last. */
    long next() {
        return ++lastId;
    }

    /** Refuses an acknowledgement past the last id ({@link Chat#beyondLastId}). */
    void checkUpTo(ChatId chat, long upTo) {
        if (upTo > lastId) {
            throw Chat.beyondLastId(chat, upTo, lastId);
        }
    }

    /** Keeps at most {@code maxRetained}: the oldest messages go, read or not. */
    void trimRetained(int maxRetained) {
        firstAvailableId = Math.max(firstAvailableId, lastId - maxRetained + 1);
    }

    /** Drops what every member has acknowledged: everything up to the lowest cursor. */
    void trimAcknowledged(long lowestCursor) {
        firstAvailableId = Math.max(firstAvailableId, lowestCursor + 1);
    }

    HistoryWindow window() {
        return new HistoryWindow(firstAvailableId, lastId);
    }

    /** Puts the ids back as a store kept them. */
    void restore(long lastId, long firstAvailableId) {
        this.lastId = lastId;
        this.firstAvailableId = firstAvailableId;
    }
}
