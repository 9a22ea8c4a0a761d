package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.Chat;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Joined;
import dev.pigeonhole.domain.model.chat.Left;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.MessagePage;
import dev.pigeonhole.domain.model.chat.Opened;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.chat.Sent;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.port.out.Chats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;

/**
 * Group chats in memory: the domain's {@link Chat} aggregates, each applied under its own lock
 * ({@link StoredChat}), so operations on one chat are atomic and operations on different chats
 * never wait for each other. Every rule is the aggregate's; this class only finds chats, holds
 * their locks, keeps their messages and announces what a send stored.
 *
 * <p>Beside the chats sits an index of each user's chats, the counterpart of Redis's
 * {@code user:{u}:chats}, so that {@link #pending} visits only the user's own chats. It changes
 * only under the chat's write lock, together with the membership it mirrors; readers still ask
 * the chat, which is the truth.
 *
 * <p>Lock order: a chat's lock (several chats' in ChatId order, for a batch acknowledge), then
 * the index's per-key update. Nothing takes a chat's lock inside an index update, so the two
 * cannot deadlock.
 */
public final class InMemoryChats implements Chats {

    private final Limits limits;
    private final InMemoryChannels channels;
    private final ConcurrentHashMap<ChatId, StoredChat> chats = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<UserId, NavigableSet<ChatId>> chatsByUser = new ConcurrentHashMap<>();

    public InMemoryChats(Limits limits, InMemoryChannels channels) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.channels = Objects.requireNonNull(channels, "channels");
    }

    @Override
    public Opened open(ChatId chat, UserId creator, Set<UserId> members, Access access, String body,
                       Instant at) {
        // Opened before anyone can see it: a refusal leaves nothing behind, and no reader ever
        // finds the chat without its first message.
        StoredChat stored = new StoredChat(new Chat(chat, limits));
        Opened opened = stored.chat.open(creator, members, access, body, at);
        stored.keep(opened.first());

        // Hold its lock while it goes public, so that a member leaving at once waits until the
        // index lists the chat, and a second message cannot be announced before the first.
        Lock write = stored.lock.writeLock();
        write.lock();
        try {
            if (chats.putIfAbsent(chat, stored) != null) {
                throw new ChatAlreadyExistsException(chat);
            }
            opened.members().forEach(member -> index(member, chat));
            announce(stored, opened.first());
            return opened;
        } finally {
            write.unlock();
        }
    }

    @Override
    public Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key,
                        RateLimit rate) {
        return changing(chat, stored -> {
            Sent sent = stored.chat.send(sender, body, at, key, rate);
            stored.keep(sent);
            // Still under the chat's lock, so each chat's messages are announced in id order.
            announce(stored, sent);
            return sent.message();
        });
    }

    @Override
    public List<PendingChat> pending(UserId user, int perChatLimit) {
        List<PendingChat> pending = new ArrayList<>();
        for (StoredChat stored : storedChatsOf(user)) {
            reading(stored, user, () -> pending.add(stored.chat.pending(user, perChatLimit, stored)));
        }
        return List.copyOf(pending);
    }

    @Override
    public void acknowledge(UserId user, ChatId chat, long upTo) {
        changing(chat, stored -> {
            stored.chat.acknowledge(user, upTo);
            stored.forgetDropped();
            return null;
        });
    }

    /**
     * Holds the write lock of every chat named, taken in ChatId order while the aggregate checks
     * them all and then moves the cursors. Every other operation holds one chat's lock at a time,
     * and batches all lock in the same order, so none of them can deadlock with another.
     */
    @Override
    public void acknowledge(UserId user, SortedMap<ChatId, Long> upTo) {
        Map<ChatId, StoredChat> found = new HashMap<>();
        List<Lock> held = new ArrayList<>(upTo.size());
        try {
            for (ChatId chat : upTo.keySet()) {
                StoredChat stored = chats.get(chat);
                if (stored != null) {
                    Lock write = stored.lock.writeLock();
                    write.lock();
                    held.add(write);
                    found.put(chat, stored);
                }
            }
            Chat.acknowledgeAll(user, upTo, chat -> Optional.ofNullable(found.get(chat)).map(stored -> stored.chat));
            found.values().forEach(StoredChat::forgetDropped);
        } finally {
            held.reversed().forEach(Lock::unlock);
        }
    }

    @Override
    public MessagePage read(UserId reader, ChatId chat, long after, int limit) {
        StoredChat stored = existing(chat);
        Lock read = stored.lock.readLock();
        read.lock();
        try {
            return stored.chat.read(reader, after, limit, stored);
        } finally {
            read.unlock();
        }
    }

    @Override
    public Joined join(ChatId chat, UserId by, UserId user) {
        return changing(chat, stored -> {
            Joined joined = stored.chat.join(by, user);
            if (joined.added()) {
                index(user, chat);
            }
            return joined;
        });
    }

    @Override
    public Joined accept(ChatId chat, UserId inviter, UserId invitee, long joinPoint) {
        return changing(chat, stored -> {
            Joined joined = stored.chat.accept(inviter, invitee, joinPoint);
            if (joined.added()) {
                index(invitee, chat);
            }
            return joined;
        });
    }

    @Override
    public Left leave(ChatId chat, UserId user) {
        return changing(chat, stored -> {
            Left left = stored.chat.leave(user);
            unindex(user, chat);
            if (left.chatDeleted()) {
                // Only this chat may be removed: the id could already name a chat opened anew.
                chats.remove(chat, stored);
            } else {
                stored.forgetDropped();
            }
            return left;
        });
    }

    @Override
    public List<ChatSummary> chatsOf(UserId user) {
        List<ChatSummary> summaries = new ArrayList<>();
        for (StoredChat stored : storedChatsOf(user)) {
            reading(stored, user, () -> summaries.add(stored.chat.summaryFor(user)));
        }
        return List.copyOf(summaries);
    }

    @Override
    public ChatSummary summaryOf(UserId member, ChatId chat) {
        StoredChat stored = existing(chat);
        Lock read = stored.lock.readLock();
        read.lock();
        try {
            return stored.chat.summaryFor(member);
        } finally {
            read.unlock();
        }
    }

    @Override
    public List<ChatId> chatIdsOf(UserId user) {
        NavigableSet<ChatId> ids = chatsByUser.get(user);
        return ids == null ? List.of() : List.copyOf(ids);
    }

    /**
     * Runs a change on an existing chat under its write lock. A chat found in the map may have
     * been deleted by the time the lock is ours; the aggregate then answers as if it never
     * existed, which is what keeps a late send, join or acknowledge from bringing it back.
     */
    private <T> T changing(ChatId chat, Function<StoredChat, T> change) {
        StoredChat stored = existing(chat);
        Lock write = stored.lock.writeLock();
        write.lock();
        try {
            return change.apply(stored);
        } finally {
            write.unlock();
        }
    }

    /** Runs a query for one of the user's chats, skipping it if it went away or the user left it meanwhile. */
    private static void reading(StoredChat stored, UserId user, Runnable query) {
        Lock read = stored.lock.readLock();
        read.lock();
        try {
            if (stored.chat.isMember(user)) {
                query.run();
            }
        } finally {
            read.unlock();
        }
    }

    private StoredChat existing(ChatId chat) {
        StoredChat stored = chats.get(chat);
        if (stored == null) {
            throw new UnknownChatException(chat);
        }
        return stored;
    }

    /** The user's chats in chat id order (the index is sorted), as they are now. */
    private List<StoredChat> storedChatsOf(UserId user) {
        NavigableSet<ChatId> ids = chatsByUser.get(user);
        if (ids == null) {
            return List.of();
        }
        List<StoredChat> found = new ArrayList<>(ids.size());
        for (ChatId chat : ids) {
            StoredChat stored = chats.get(chat);
            if (stored != null) {
                found.add(stored);
            }
        }
        return found;
    }

    private void index(UserId user, ChatId chat) {
        chatsByUser.compute(user, (key, ids) -> {
            NavigableSet<ChatId> updated = ids != null ? ids : new ConcurrentSkipListSet<>();
            updated.add(chat);
            return updated;
        });
    }

    /** Drops the entry, and the user's set with it once empty, so users who left everything cost nothing. */
    private void unindex(UserId user, ChatId chat) {
        chatsByUser.computeIfPresent(user, (key, ids) -> {
            ids.remove(chat);
            return ids.isEmpty() ? null : ids;
        });
    }

    /** A repeated send announces nothing: its events are empty. */
    private void announce(StoredChat stored, Sent sent) {
        LiveEvent.announcing(sent).forEach(event -> channels.publish(stored.channel, event));
    }
}
