package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.UserId;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The members of one chat and their cursors, with the lowest cursor at hand.
 *
 * <p>The lowest cursor decides which messages every member has seen and may be trimmed. Scanning
 * up to a thousand members on every acknowledge would work, but a count of members per cursor
 * value answers in O(log n), so a busy chat pays the same whatever its size.
 *
 * <p>Not thread-safe: its {@link ChatRoom}'s lock guards it.
 */
final class Cursors {

    private final Map<UserId, Long> cursorByMember = new HashMap<>();
    private final TreeMap<Long, Integer> membersAtCursor = new TreeMap<>();

    boolean contains(UserId member) {
        return cursorByMember.containsKey(member);
    }

    /** The member's cursor, or null if it is not a member. */
    Long get(UserId member) {
        return cursorByMember.get(member);
    }

    /** Adds the member at {@code cursor}, or moves it there if it is one already. */
    void put(UserId member, long cursor) {
        Long previous = cursorByMember.put(member, cursor);
        if (previous != null) {
            uncount(previous);
        }
        membersAtCursor.merge(cursor, 1, Integer::sum);
    }

    void remove(UserId member) {
        Long previous = cursorByMember.remove(member);
        if (previous != null) {
            uncount(previous);
        }
    }

    /** The lowest cursor of any member; only meaningful while there is at least one. */
    long lowest() {
        return membersAtCursor.firstKey();
    }

    int size() {
        return cursorByMember.size();
    }

    boolean isEmpty() {
        return cursorByMember.isEmpty();
    }

    Set<UserId> members() {
        return Set.copyOf(cursorByMember.keySet());
    }

    private void uncount(long cursor) {
        membersAtCursor.computeIfPresent(cursor, (at, count) -> count == 1 ? null : count - 1);
    }
}
