package dev.pigeonhole.tck;

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
import dev.pigeonhole.domain.model.chat.MessageLog;
import dev.pigeonhole.domain.model.chat.MessagePage;
import dev.pigeonhole.domain.model.chat.Opened;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.chat.Sent;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The domain's {@link Chat} aggregates in a map, one operation at a time: the plainest store
 * there is, and the reference {@link ChatsDifferentialContract} holds every store to. It holds no
 * rule of its own. Where a store must decide something the aggregate cannot (whether a chat id is
 * taken, which chats a user is in), it does what every store does: it looks in its map.
 */
final class Reference {

    private final Limits limits;
    private final Map<ChatId, Kept> chats = new TreeMap<>();
    private final Map<Channel, List<LiveEvent>> announced = new HashMap<>();

    Reference(Limits limits) {
        this.limits = limits;
    }

    /** A chat and every message it ever stored; the aggregate's window says which of them are still held. */
    private record Kept(Chat chat, List<Message> stored) implements MessageLog {

        @Override
        public List<Message> after(long id, int limit) {
            long from = Math.max(id + 1, chat.history().firstAvailableId());
            return stored.stream().filter(message -> message.id() >= from).limit(limit).toList();
        }
    }

    Opened open(ChatId chat, UserId creator, Set<UserId> others, Access access, String body, Instant at) {
        Kept kept = new Kept(new Chat(chat, limits), new ArrayList<>());
        Opened opened = kept.chat().open(creator, others, access, body, at);
        if (chats.containsKey(chat)) {
            throw new ChatAlreadyExistsException(chat);
        }
        chats.put(chat, kept);
        keep(kept, opened.first());
        return opened;
    }

    Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key) {
        return send(chat, sender, body, at, key, RateLimit.NONE);
    }

    Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key, RateLimit rate) {
        Kept kept = existing(chat);
        Sent sent = kept.chat().send(sender, body, at, key, rate);
        keep(kept, sent);
        return sent.message();
    }

    void acknowledge(UserId user, ChatId chat, long upTo) {
        existing(chat).chat().acknowledge(user, upTo);
    }

    void acknowledge(UserId user, SortedMap<ChatId, Long> upTo) {
        Chat.acknowledgeAll(user, upTo, chat -> Optional.ofNullable(chats.get(chat)).map(Kept::chat));
    }

    Joined join(ChatId chat, UserId by, UserId user) {
        return existing(chat).chat().join(by, user);
    }

    Joined accept(ChatId chat, UserId inviter, UserId invitee, long joinPoint) {
        return existing(chat).chat().accept(inviter, invitee, joinPoint);
    }

    Left leave(ChatId chat, UserId user) {
        Left left = existing(chat).chat().leave(user);
        if (left.chatDeleted()) {
            chats.remove(chat);
        }
        return left;
    }

    List<PendingChat> pending(UserId user, int perChatLimit) {
        return chats.values().stream()
                .filter(kept -> kept.chat().isMember(user))
                .map(kept -> kept.chat().pending(user, perChatLimit, kept))
                .toList();
    }

    MessagePage read(UserId reader, ChatId chat, long after, int limit) {
        Kept kept = existing(chat);
        return kept.chat().read(reader, after, limit, kept);
    }

    List<ChatSummary> chatsOf(UserId user) {
        return chats.values().stream()
                .filter(kept -> kept.chat().isMember(user))
                .map(kept -> kept.chat().summaryFor(user))
                .toList();
    }

    List<ChatId> chatIdsOf(UserId user) {
        return chatsOf(user).stream().map(ChatSummary::chat).toList();
    }

    long lastId(ChatId chat) {
        Kept kept = chats.get(chat);
        return kept == null ? 0 : kept.chat().history().lastId();
    }

    /** What each chat's channel must have carried, in order. */
    Map<Channel, List<LiveEvent>> announced() {
        return announced;
    }

    private Kept existing(ChatId chat) {
        Kept kept = chats.get(chat);
        if (kept == null) {
            throw new UnknownChatException(chat);
        }
        return kept;
    }

    private void keep(Kept kept, Sent sent) {
        if (!sent.repeat()) {
            kept.stored().add(sent.message());
        }
        announced.computeIfAbsent(Channel.ofChat(sent.chat()), channel -> new ArrayList<>())
                .addAll(LiveEvent.announcing(sent));
    }
}
