package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.Channel;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.ChatSummary;
import dev.pigeonhole.domain.model.IdempotencyKey;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.Message;
import dev.pigeonhole.domain.model.MessagePage;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.PendingChat;
import dev.pigeonhole.domain.model.UserId;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One chat's state: members and cursors, the retained messages and the id counter.
 *
 * <p>Its mutable state is guarded by {@link #lock}, and every method expects the caller to hold it
 * (the read lock for queries, the write lock for changes). One lock per chat keeps each operation
 * atomic, like the Redis adapter's one script per call, while different chats never wait for each
 * other. It is a {@link ReentrantReadWriteLock} rather than {@code synchronized} so that a virtual
 * thread waiting for it does not pin its carrier thread on JDK 21.
 *
 * <p>The retained ids always form one run, {@code firstAvailableId..lastId}: messages are only
 * ever added at the top and dropped at the bottom. That makes the count a subtraction and the gap
 * test a comparison.
 */
final class ChatRoom {

    final ChatId id;
    /** Built once: a {@link Channel} validates its name, which a busy chat should not repeat. */
    final Channel channel;
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    private final int maxRetained;
    private final Cursors cursors = new Cursors();
    private final NavigableMap<Long, Message> retained = new TreeMap<>();
    private long lastId;
    /** The oldest id still held; when nothing is held, lastId + 1, the id the next message gets. */
    private long firstAvailableId = 1;
    private boolean deleted;
    /** Sends made under an idempotency key, in the order made, until their window passes. */
    private final LinkedHashMap<SentKey, Sent> sentUnderKey = new LinkedHashMap<>();

    private record SentKey(UserId sender, IdempotencyKey key) {
    }

    private record Sent(Message message, Instant forgetAt) {
    }

    ChatRoom(ChatId id, Set<UserId> members, int maxRetained) {
        this.id = id;
        this.channel = Channel.ofChat(id);
        this.maxRetained = maxRetained;
        for (UserId member : members) {
            cursors.put(member, 0);
        }
    }

    /**
     * True once the last member has left. A caller may have found the room in the map just before
     * that; it must then answer as if the chat never existed, not bring it back.
     */
    boolean isDeleted() {
        return deleted;
    }

    boolean isMember(UserId user) {
        return cursors.contains(user);
    }

    int memberCount() {
        return cursors.size();
    }

    /**
     * The message a member already sent under this key, if its window is still open. Checks
     * membership first, so a member who left cannot replay. A key reused for another body is a
     * client's mistake and is refused rather than silently answered with the first message.
     */
    Optional<Message> sentBefore(UserId sender, Optional<IdempotencyKey> key, String body, Instant at) {
        requireMember(sender);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        forgetKeysBefore(at);
        Sent sent = sentUnderKey.get(new SentKey(sender, key.get()));
        if (sent == null || !at.isBefore(sent.forgetAt())) {
            return Optional.empty();
        }
        if (!sent.message().body().equals(body)) {
            throw new InvalidInputException("idempotency key " + key.get() + " was used for a different message in chat "
                    + id + "; use a new key for a new message");
        }
        return Optional.of(sent.message());
    }

    void remember(UserId sender, IdempotencyKey key, Message message) {
        SentKey sentKey = new SentKey(sender, key);
        // Re-inserted at the end, so the map stays in the order the windows close.
        sentUnderKey.remove(sentKey);
        sentUnderKey.put(sentKey, new Sent(message, message.sentAt().plus(IdempotencyKey.WINDOW)));
    }

    private void forgetKeysBefore(Instant at) {
        Iterator<Sent> oldestFirst = sentUnderKey.values().iterator();
        while (oldestFirst.hasNext() && !at.isBefore(oldestFirst.next().forgetAt())) {
            oldestFirst.remove();
        }
    }

    /** Appends the next message, moves the sender's cursor if it had seen everything, keeps the retention limit. */
    Message append(UserId sender, String body, Instant at) {
        long cursor = cursorOf(sender);
        Message message = new Message(lastId + 1, at, sender, body);
        lastId = message.id();
        retained.put(lastId, message);
        if (cursor == lastId - 1) {
            cursors.put(sender, lastId);
        }
        while (lastId - firstAvailableId + 1 > maxRetained) {
            retained.remove(firstAvailableId++);
        }
        return message;
    }

    /** Moves the member's cursor forward only, then trims what everyone has seen. */
    void acknowledge(UserId member, long upTo) {
        long cursor = cursorOf(member);
        if (upTo < 0 || upTo > lastId) {
            throw new InvalidInputException("cannot acknowledge up to " + upTo + " in chat " + id
                    + ": its ids run from 1 to its last id, " + lastId);
        }
        if (upTo > cursor) {
            cursors.put(member, upTo);
            trimSeenByEveryone();
        }
    }

    /** Adds a member with nothing unread; a member already in keeps its cursor. */
    void join(UserId user) {
        if (!cursors.contains(user)) {
            cursors.put(user, lastId);
        }
    }

    /** Removes the member; the last one out marks the room deleted and lets go of its messages. */
    void leave(UserId member) {
        requireMember(member);
        cursors.remove(member);
        if (cursors.isEmpty()) {
            deleted = true;
            retained.clear();
        } else {
            // The leaver may have been the one holding the oldest messages back.
            trimSeenByEveryone();
        }
    }

    PendingChat pendingFor(UserId member, int limit) {
        long cursor = cursorOf(member);
        return new PendingChat(id, messagesAfter(cursor, limit), lastId - cursor, cursor + 1 < firstAvailableId,
                firstAvailableId);
    }

    MessagePage pageFor(UserId reader, long after, int limit) {
        requireMember(reader);
        boolean gap = after + 1 < firstAvailableId && after < lastId;
        return new MessagePage(messagesAfter(after, limit), gap, firstAvailableId, lastId);
    }

    ChatSummary summaryFor(UserId member) {
        return new ChatSummary(id, cursors.members(), cursorOf(member), lastId);
    }

    /** The member's cursor; throws for anyone else, which is how every operation checks membership. */
    private long cursorOf(UserId user) {
        Long cursor = cursors.get(user);
        if (cursor == null) {
            throw new NotAMemberException(user, id);
        }
        return cursor;
    }

    private void requireMember(UserId user) {
        cursorOf(user);
    }

    private List<Message> messagesAfter(long after, int limit) {
        List<Message> page = new ArrayList<>(Math.min(limit, retained.size()));
        for (Message message : retained.tailMap(after, false).values()) {
            if (page.size() == limit) {
                break;
            }
            page.add(message);
        }
        return page;
    }

    private void trimSeenByEveryone() {
        long seenByEveryone = cursors.lowest();
        while (firstAvailableId <= seenByEveryone) {
            retained.remove(firstAvailableId++);
        }
    }
}
