package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.ChatSummary;
import dev.pigeonhole.domain.model.IdempotencyKey;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.model.LiveEvent;
import dev.pigeonhole.domain.model.Message;
import dev.pigeonhole.domain.model.MessagePage;
import dev.pigeonhole.domain.model.PendingChat;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.Chats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;

/**
 * Group chats in memory. Each chat is a {@link ChatRoom} with its own lock, so operations on one
 * chat are atomic and operations on different chats never wait for each other; there is no lock
 * around the whole store.
 *
 * <p>Beside the rooms sits an index of each user's chats, the counterpart of Redis's
 * {@code user:{u}:chats}, so that {@link #pending} visits only the user's own chats. The index is
 * changed only while the room's write lock is held, together with the membership it mirrors, so
 * the two never disagree for long; readers still check membership in the room, which is the truth.
 *
 * <p>Lock order: a room's lock, then the index's per-key update. Nothing takes a room's lock while
 * inside an index update, so the two cannot deadlock.
 */
public final class InMemoryChats implements Chats {

    private final Limits limits;
    private final InMemoryChannels channels;
    private final ConcurrentHashMap<ChatId, ChatRoom> rooms = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<UserId, NavigableSet<ChatId>> chatsByUser = new ConcurrentHashMap<>();
    private final AtomicLong lastAssignedChatId = new AtomicLong();

    public InMemoryChats(Limits limits, InMemoryChannels channels) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.channels = Objects.requireNonNull(channels, "channels");
    }

    @Override
    public ChatId newChatId() {
        // The counter alone never repeats itself, but a creator may have chosen "7" already.
        while (true) {
            ChatId candidate = ChatId.of(Long.toString(lastAssignedChatId.incrementAndGet()));
            if (!rooms.containsKey(candidate)) {
                return candidate;
            }
        }
    }

    @Override
    public Message open(ChatId chat, UserId creator, Set<UserId> members, String body, Instant at) {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(creator, "creator");
        Set<UserId> everyone = new HashSet<>(members);
        everyone.add(creator);
        if (everyone.size() > limits.maxMembers()) {
            throw new ChatFullException(chat, limits.maxMembers());
        }

        // Build the room with its first message before anyone can see it: a bad body fails here,
        // leaving nothing behind, and no reader ever finds the chat empty.
        ChatRoom room = new ChatRoom(chat, everyone, limits.maxRetained());
        Message first = room.append(creator, body, at);

        // Hold the room's lock while it goes public, so that a member leaving at once waits until
        // the index lists the chat, and a second message cannot be announced before the first.
        Lock write = room.lock.writeLock();
        write.lock();
        try {
            if (rooms.putIfAbsent(chat, room) != null) {
                throw new ChatAlreadyExistsException(chat);
            }
            everyone.forEach(member -> index(member, chat));
            announce(room, first);
            return first;
        } finally {
            write.unlock();
        }
    }

    @Override
    public Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key) {
        return changing(chat, room -> {
            Optional<Message> earlier = room.sentBefore(sender, key, body, at);
            if (earlier.isPresent()) {
                return earlier.get();
            }
            Message message = room.append(sender, body, at);
            key.ifPresent(sentKey -> room.remember(sender, sentKey, message));
            // Still under the room's lock, so each chat's events go out in id order.
            announce(room, message);
            return message;
        });
    }

    @Override
    public List<PendingChat> pending(UserId user, int perChatLimit) {
        positive("perChatLimit", perChatLimit);
        List<PendingChat> pending = new ArrayList<>();
        for (ChatRoom room : roomsOf(user)) {
            reading(room, user, () -> pending.add(room.pendingFor(user, perChatLimit)));
        }
        return List.copyOf(pending);
    }

    @Override
    public void acknowledge(UserId user, ChatId chat, long upTo) {
        changing(chat, room -> {
            room.acknowledge(user, upTo);
            return null;
        });
    }

    @Override
    public MessagePage messagesAfter(UserId reader, ChatId chat, long after, int limit) {
        if (after < 0) {
            throw new InvalidInputException("after must be 0 or more, not " + after);
        }
        positive("limit", limit);
        ChatRoom room = existing(chat);
        Lock read = room.lock.readLock();
        read.lock();
        try {
            requireNotDeleted(room);
            return room.pageFor(reader, after, limit);
        } finally {
            read.unlock();
        }
    }

    @Override
    public void join(ChatId chat, UserId user) {
        changing(chat, room -> {
            if (!room.isMember(user)) {
                if (room.memberCount() >= limits.maxMembers()) {
                    throw new ChatFullException(chat, limits.maxMembers());
                }
                room.join(user);
                index(user, chat);
            }
            return null;
        });
    }

    @Override
    public void leave(ChatId chat, UserId user) {
        changing(chat, room -> {
            room.leave(user);
            unindex(user, chat);
            if (room.isDeleted()) {
                // Only this room may be removed: the id could already name a chat opened anew.
                rooms.remove(chat, room);
            }
            return null;
        });
    }

    @Override
    public List<ChatSummary> chatsOf(UserId user) {
        List<ChatSummary> summaries = new ArrayList<>();
        for (ChatRoom room : roomsOf(user)) {
            reading(room, user, () -> summaries.add(room.summaryFor(user)));
        }
        return List.copyOf(summaries);
    }

    /**
     * Runs a change on an existing chat under its write lock. A room found in the map may be
     * deleted by the time the lock is ours; it then counts as unknown, which is what keeps a late
     * send, join or acknowledge from bringing it back.
     */
    private <T> T changing(ChatId chat, Function<ChatRoom, T> change) {
        ChatRoom room = existing(chat);
        Lock write = room.lock.writeLock();
        write.lock();
        try {
            requireNotDeleted(room);
            return change.apply(room);
        } finally {
            write.unlock();
        }
    }

    /** Runs a query for one of the user's chats, skipping it if it went away or the user left it meanwhile. */
    private static void reading(ChatRoom room, UserId user, Runnable query) {
        Lock read = room.lock.readLock();
        read.lock();
        try {
            if (!room.isDeleted() && room.isMember(user)) {
                query.run();
            }
        } finally {
            read.unlock();
        }
    }

    private ChatRoom existing(ChatId chat) {
        ChatRoom room = rooms.get(Objects.requireNonNull(chat, "chat"));
        if (room == null) {
            throw new UnknownChatException(chat);
        }
        return room;
    }

    private static void requireNotDeleted(ChatRoom room) {
        if (room.isDeleted()) {
            throw new UnknownChatException(room.id);
        }
    }

    /** The user's rooms in chat id order (the index is sorted), as they are now. */
    private List<ChatRoom> roomsOf(UserId user) {
        NavigableSet<ChatId> chats = chatsByUser.get(Objects.requireNonNull(user, "user"));
        if (chats == null) {
            return List.of();
        }
        List<ChatRoom> found = new ArrayList<>();
        for (ChatId chat : chats) {
            ChatRoom room = rooms.get(chat);
            if (room != null) {
                found.add(room);
            }
        }
        return found;
    }

    private void index(UserId user, ChatId chat) {
        chatsByUser.compute(user, (key, chats) -> {
            NavigableSet<ChatId> updated = chats != null ? chats : new ConcurrentSkipListSet<>();
            updated.add(chat);
            return updated;
        });
    }

    /** Drops the entry, and the user's set with it once empty, so users who left everything cost nothing. */
    private void unindex(UserId user, ChatId chat) {
        chatsByUser.computeIfPresent(user, (key, chats) -> {
            chats.remove(chat);
            return chats.isEmpty() ? null : chats;
        });
    }

    private void announce(ChatRoom room, Message message) {
        channels.publish(room.channel, new LiveEvent.MessagePosted(room.id, message));
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new InvalidInputException(name + " must be at least 1, not " + value);
        }
    }
}
