package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.UserId;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The members of one chat: each one's cursor and join point, with the lowest cursor at hand.
 *
 * <p>The lowest cursor decides which messages every member has seen and may be dropped. Scanning
 * up to a thousand members on every acknowledge would work, but a count of members per cursor
 * answers in O(log n), so a busy chat pays the same whatever its size.
 *
 * <p>A member's join point is the last id when it came in: what it may read starts after it.
 * A cursor starts at the join point and only moves forward, so it is never below it.
 *
 * <p>Not thread-safe: it is part of a {@link Chat}, which its store guards.
 */
final class Members {

    private final Map<UserId, Long> cursorByMember = new HashMap<>();
    private final Map<UserId, Long> joinPointByMember = new HashMap<>();
    private final TreeMap<Long, Integer> membersAtCursor = new TreeMap<>();
    /**
     * The members as one immutable set, made on the first ask after a change and then handed to
     * every reader: a thousand live feeds of a thousand-member chat share one set instead of
     * holding a copy each. Readers under the store's read lock may make it at the same time;
     * they make equal sets, and an immutable set is safe to publish this way.
     */
    private volatile Set<UserId> all;

    /** The member's cursor, or empty if the user is not a member. */
    OptionalLong cursorOf(UserId user) {
        Long cursor = cursorByMember.get(user);
        return cursor == null ? OptionalLong.empty() : OptionalLong.of(cursor);
    }

    /** The last id when the member came in; only asked of a member. */
    long joinPointOf(UserId member) {
        return joinPointByMember.get(member);
    }

    boolean contains(UserId user) {
        return cursorByMember.containsKey(user);
    }

    /** Adds a user who is not a member yet, with its cursor and join point both at {@code at}. */
    void add(UserId user, long at) {
        all = null;
        joinPointByMember.put(user, at);
        moveCursor(user, at);
    }

    /** Moves a member's cursor to {@code cursor}. */
    void moveCursor(UserId member, long cursor) {
        Long previous = cursorByMember.put(member, cursor);
        if (previous != null) {
            uncount(previous);
        }
        membersAtCursor.merge(cursor, 1, Integer::sum);
    }

    /**
     * Moves the sender's cursor to its own message {@code id} only if the sender had seen
     * everything before it, so its own message is never unread and nothing from others is skipped.
     */
    void moveSenderCursor(UserId sender, long cursor, long id) {
        if (cursor == id - 1) {
            moveCursor(sender, id);
        }
    }

    void remove(UserId member) {
        all = null;
        Long previous = cursorByMember.remove(member);
        joinPointByMember.remove(member);
        if (previous != null) {
            uncount(previous);
        }
    }

    /** The lowest cursor of any member; only asked while there is at least one. */
    long lowestCursor() {
        return membersAtCursor.firstKey();
    }

    int count() {
        return cursorByMember.size();
    }

    boolean isEmpty() {
        return cursorByMember.isEmpty();
    }

    Set<UserId> all() {
        Set<UserId> members = all;
        if (members == null) {
            members = Set.copyOf(cursorByMember.keySet());
            all = members;
        }
        return members;
    }

    /** Each member's cursor and join point, as values. */
    Map<UserId, ChatSnapshot.Member> snapshot() {
        Map<UserId, ChatSnapshot.Member> all = new HashMap<>();
        cursorByMember.forEach((member, cursor) ->
                all.put(member, new ChatSnapshot.Member(cursor, joinPointByMember.get(member))));
        return all;
    }

    /** Puts a member back as a store kept it. */
    void restore(UserId member, ChatSnapshot.Member state) {
        all = null;
        joinPointByMember.put(member, state.joinPoint());
        moveCursor(member, state.cursor());
    }

    private void uncount(long cursor) {
        membersAtCursor.computeIfPresent(cursor, (at, count) -> count == 1 ? null : count - 1);
    }
}
