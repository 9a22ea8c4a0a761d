package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.ChatSummary;
import dev.pigeonhole.domain.model.IdempotencyKey;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.model.Message;
import dev.pigeonhole.domain.model.MessagePage;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.PendingChat;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.Chats;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Group chats on Redis: Redis in Action 6.5.2 with one script per operation instead of a lock
 * and several round trips.
 *
 * <p>Every change to a chat is one script over that chat's keys, so it is atomic and, on a
 * cluster, runs on one node. What a script cannot reach on a cluster is the user's index of chats
 * ({@code user:{u}:chats}, another slot): open, join and leave update it in a second, pipelined
 * step, after the chat's own change has succeeded. The chat's members set stays the truth; the
 * index only says where to look, so {@link #pending} and {@link #chatsOf} skip a chat the index
 * still lists but the user is no longer in.
 *
 * <p>Round trips: send, acknowledge and read 1; pending and chatsOf 2 whatever the number of
 * chats; open, join and leave 2.
 */
public final class RedisChats implements Chats {

    /** How long a send in the book layout waits for a book client's lock before giving up. */
    private static final Duration BOOK_LOCK_PATIENCE = Duration.ofSeconds(2);

    private final RedisDriver redis;
    private final KeyLayout keys;
    private final Limits limits;
    private final PublishMode publishing;

    public RedisChats(RedisDriver redis, KeyLayout keys, Limits limits, PublishMode publishing) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.publishing = Objects.requireNonNull(publishing, "publishing");
        if (redis.isCluster() && !keys.clusterSafe()) {
            throw new IllegalArgumentException("the book key layout is for a single Redis node: its keys carry no hash"
                    + " tags, so one chat's keys would land on different cluster nodes; use the tagged layout");
        }
    }

    @Override
    public ChatId newChatId() {
        // The counter alone never repeats itself, but a creator may have chosen "7" already.
        while (true) {
            long next = Reply.of(redis.run(call(Scripts.COUNTER_NEXT, List.of(keys.chatIdCounter()))), Scripts.COUNTER_NEXT)
                    .number(0);
            ChatId candidate = ChatId.of(Long.toString(next));
            String members = keys.chat(candidate).members();
            if (Reply.of(redis.run(call(Scripts.CHAT_EXISTS, List.of(members))), Scripts.CHAT_EXISTS).number(0) == 0) {
                return candidate;
            }
        }
    }

    @Override
    public Message open(ChatId chat, UserId creator, Set<UserId> members, String body, Instant at) {
        Set<UserId> everyone = new HashSet<>(members);
        everyone.add(Objects.requireNonNull(creator, "creator"));
        if (everyone.size() > limits.maxMembers()) {
            throw new ChatFullException(chat, limits.maxMembers());
        }
        Message first = draft(creator, body, at);
        KeyLayout.ChatKeys chatKeys = keys.chat(chat);
        List<String> scriptKeys = new ArrayList<>(chatKeys.state());
        chatKeys.sendLock().ifPresent(scriptKeys::add);
        List<String> args = new ArrayList<>(appendArguments(chat, creator, first));
        everyone.forEach(member -> args.add(member.value()));

        Reply reply = waitingForBookLock(chat, () -> Reply.of(redis.run(new ScriptCall(Scripts.CHAT_OPEN, scriptKeys, args)),
                Scripts.CHAT_OPEN));
        if (reply.is("EXISTS")) {
            throw new ChatAlreadyExistsException(chat);
        }
        requireOk(reply, Scripts.CHAT_OPEN);

        List<ScriptCall> indexing = new ArrayList<>();
        for (UserId member : everyone) {
            long cursor = member.equals(creator) ? 1 : 0;
            indexing.add(new ScriptCall(Scripts.INDEX_ADD, List.of(keys.chatsOf(member)),
                    List.of(chat.value(), Long.toString(cursor))));
        }
        redis.runAll(indexing);
        return withId(first, reply.number(0));
    }

    @Override
    public Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key) {
        Message draft = draft(sender, body, at);
        KeyLayout.ChatKeys chatKeys = keys.chat(chat);
        List<String> scriptKeys = new ArrayList<>(chatKeys.all());
        // The book layout has both extras: its lock, and a sender index that holds the cursor.
        chatKeys.sendLock().ifPresent(scriptKeys::add);
        if (keys.indexHoldsCursors()) {
            scriptKeys.add(keys.chatsOf(sender));
        }
        List<String> args = new ArrayList<>(appendArguments(chat, sender, draft));
        // Ids cannot hold a space, so "sender key" names one sender's key unambiguously.
        args.add(key.map(k -> sender.value() + " " + k.value()).orElse(""));
        args.add(Long.toString(at.toEpochMilli()));
        args.add(Long.toString(IdempotencyKey.WINDOW.toMillis()));
        ScriptCall call = new ScriptCall(Scripts.CHAT_SEND, scriptKeys, args);

        Reply reply = waitingForBookLock(chat, () -> Reply.of(redis.run(call), Scripts.CHAT_SEND));
        requireChatAndMember(reply, chat, sender);
        if (reply.is("EARLIER")) {
            Message earlier = MessageJson.message(reply.text(0));
            if (!earlier.body().equals(body)) {
                throw new InvalidInputException("idempotency key " + key.orElseThrow() + " was used for a different "
                        + "message in chat " + chat + "; use a new key for a new message");
            }
            return earlier;
        }
        requireOk(reply, Scripts.CHAT_SEND);
        return withId(draft, reply.number(0));
    }

    @Override
    public List<PendingChat> pending(UserId user, int perChatLimit) {
        positive("perChatLimit", perChatLimit);
        List<ChatId> chats = indexOf(user);
        List<ScriptCall> reads = new ArrayList<>(chats.size());
        for (ChatId chat : chats) {
            reads.add(read(chat, user, "", perChatLimit));
        }
        List<Object> replies = redis.runAll(reads);

        List<PendingChat> pending = new ArrayList<>(chats.size());
        for (int i = 0; i < chats.size(); i++) {
            Reply reply = Reply.of(replies.get(i), Scripts.CHAT_READ);
            if (!reply.is("OK")) {
                continue; // the index still lists a chat the user has left, or one just deleted
            }
            View view = View.of(reply);
            pending.add(new PendingChat(chats.get(i), view.messages, view.lastId - view.cursor,
                    view.cursor + 1 < view.firstAvailableId, view.firstAvailableId));
        }
        return List.copyOf(pending);
    }

    @Override
    public void acknowledge(UserId user, ChatId chat, long upTo) {
        if (upTo < 0) {
            throw new InvalidInputException("cannot acknowledge up to " + upTo + ": ids start at 1");
        }
        KeyLayout.ChatKeys chatKeys = keys.chat(chat);
        List<String> scriptKeys = new ArrayList<>(chatKeys.state());
        if (keys.indexHoldsCursors()) {
            scriptKeys.add(keys.chatsOf(user));
        }
        ScriptCall call = new ScriptCall(Scripts.CHAT_ACKNOWLEDGE, scriptKeys,
                List.of(user.value(), Long.toString(upTo), chat.value()));
        Reply reply = Reply.of(redis.run(call), Scripts.CHAT_ACKNOWLEDGE);
        requireChatAndMember(reply, chat, user);
        if (reply.is("BEYOND_LAST")) {
            throw new InvalidInputException("cannot acknowledge up to " + upTo + " in chat " + chat
                    + ": its ids run from 1 to its last id, " + reply.number(0));
        }
        requireOk(reply, Scripts.CHAT_ACKNOWLEDGE);
    }

    @Override
    public MessagePage messagesAfter(UserId reader, ChatId chat, long after, int limit) {
        if (after < 0) {
            throw new InvalidInputException("after must be 0 or more, not " + after);
        }
        positive("limit", limit);
        Reply reply = Reply.of(redis.run(read(chat, reader, Long.toString(after), limit)), Scripts.CHAT_READ);
        requireChatAndMember(reply, chat, reader);
        requireOk(reply, Scripts.CHAT_READ);
        View view = View.of(reply);
        boolean gap = after + 1 < view.firstAvailableId && after < view.lastId;
        return new MessagePage(view.messages, gap, view.firstAvailableId, view.lastId);
    }

    @Override
    public void join(ChatId chat, UserId user) {
        KeyLayout.ChatKeys chatKeys = keys.chat(chat);
        ScriptCall call = new ScriptCall(Scripts.CHAT_JOIN, List.of(chatKeys.members(), chatKeys.messageIds()),
                List.of(user.value(), Integer.toString(limits.maxMembers())));
        Reply reply = Reply.of(redis.run(call), Scripts.CHAT_JOIN);
        requireChatAndMember(reply, chat, user);
        if (reply.is("FULL")) {
            throw new ChatFullException(chat, limits.maxMembers());
        }
        requireOk(reply, Scripts.CHAT_JOIN);
        redis.run(new ScriptCall(Scripts.INDEX_ADD, List.of(keys.chatsOf(user)),
                List.of(chat.value(), Long.toString(reply.number(0)))));
    }

    @Override
    public void leave(ChatId chat, UserId user) {
        KeyLayout.ChatKeys chatKeys = keys.chat(chat);
        ScriptCall call = new ScriptCall(Scripts.CHAT_LEAVE, chatKeys.all(), List.of(user.value()));
        Reply reply = Reply.of(redis.run(call), Scripts.CHAT_LEAVE);
        requireChatAndMember(reply, chat, user);
        requireOk(reply, Scripts.CHAT_LEAVE);
        redis.run(new ScriptCall(Scripts.INDEX_REMOVE, List.of(keys.chatsOf(user)), List.of(chat.value())));
    }

    @Override
    public List<ChatSummary> chatsOf(UserId user) {
        List<ChatId> chats = indexOf(user);
        List<ScriptCall> reads = new ArrayList<>(chats.size());
        for (ChatId chat : chats) {
            KeyLayout.ChatKeys chatKeys = keys.chat(chat);
            reads.add(new ScriptCall(Scripts.CHAT_SUMMARY, List.of(chatKeys.members(), chatKeys.messageIds()),
                    List.of(user.value())));
        }
        List<Object> replies = redis.runAll(reads);

        List<ChatSummary> summaries = new ArrayList<>(chats.size());
        for (int i = 0; i < chats.size(); i++) {
            Reply reply = Reply.of(replies.get(i), Scripts.CHAT_SUMMARY);
            if (reply.is("OK")) {
                Set<UserId> members = new HashSet<>();
                reply.texts(2).forEach(member -> members.add(UserId.of(member)));
                summaries.add(new ChatSummary(chats.get(i), members, reply.number(0), reply.number(1)));
            }
        }
        return List.copyOf(summaries);
    }

    /** The user's chats in {@link ChatId} order (the index is sorted by cursor, not by name). */
    private List<ChatId> indexOf(UserId user) {
        Reply reply = Reply.of(redis.run(call(Scripts.INDEX_LIST, List.of(keys.chatsOf(user)))), Scripts.INDEX_LIST);
        List<ChatId> chats = new ArrayList<>();
        reply.texts(0).forEach(chat -> chats.add(ChatId.of(chat)));
        chats.sort(null);
        return chats;
    }

    private ScriptCall read(ChatId chat, UserId reader, String after, int limit) {
        KeyLayout.ChatKeys chatKeys = keys.chat(chat);
        return new ScriptCall(Scripts.CHAT_READ, chatKeys.state(),
                List.of(reader.value(), after, Integer.toString(limit)));
    }

    /** The arguments {@code append} in common.lua takes, after the sender: see chat_send.lua. */
    private List<String> appendArguments(ChatId chat, UserId sender, Message draft) {
        return List.of(sender.value(), MessageJson.tailOf(draft.sentAt(), draft.sender(), draft.body()),
                Integer.toString(limits.maxRetained()), publishing.scriptArgument(), keys.chatChannel(chat),
                MessageJson.messagePostedHead(chat), chat.value());
    }

    /**
     * The message as it will be stored, with a placeholder id: checks the body before any round
     * trip, and keeps the time to the millisecond that the stored JSON keeps.
     */
    private static Message draft(UserId sender, String body, Instant at) {
        return new Message(1, Instant.ofEpochMilli(at.toEpochMilli()), sender, body);
    }

    private static Message withId(Message draft, long id) {
        return new Message(id, draft.sentAt(), draft.sender(), draft.body());
    }

    /**
     * Runs a send or an open, waiting while a book client holds the chat's lock. Only the book
     * layout ever answers LOCKED; the wait is short because the book holds it for one INCR and ZADD.
     */
    private Reply waitingForBookLock(ChatId chat, Supplier<Reply> attempt) {
        long deadline = System.nanoTime() + BOOK_LOCK_PATIENCE.toNanos();
        long pauseNanos = 100_000;
        while (true) {
            Reply reply = attempt.get();
            if (!reply.is("LOCKED")) {
                return reply;
            }
            if (System.nanoTime() > deadline) {
                throw new StoreUnavailableException("chat " + chat + " stayed locked by another writer for "
                        + BOOK_LOCK_PATIENCE.toSeconds() + " s (lock:chat:" + chat + ")", null);
            }
            LockSupport.parkNanos(pauseNanos);
            pauseNanos = Math.min(pauseNanos * 2, 20_000_000);
        }
    }

    private static void requireChatAndMember(Reply reply, ChatId chat, UserId user) {
        if (reply.is("NO_CHAT")) {
            throw new UnknownChatException(chat);
        }
        if (reply.is("NOT_MEMBER")) {
            throw new NotAMemberException(user, chat);
        }
    }

    private static void requireOk(Reply reply, LuaScript script) {
        if (!reply.is("OK")) {
            throw reply.unexpected(script);
        }
    }

    private static ScriptCall call(LuaScript script, List<String> scriptKeys) {
        return new ScriptCall(script, scriptKeys, List.of());
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new InvalidInputException(name + " must be at least 1, not " + value);
        }
    }

    /** What chat_read.lua answers: cursor, last id, first available id, the page of messages. */
    private record View(long cursor, long lastId, long firstAvailableId, List<Message> messages) {

        static View of(Reply reply) {
            List<String> page = reply.texts(3);
            List<Message> messages = new ArrayList<>(page.size());
            page.forEach(json -> messages.add(MessageJson.message(json)));
            return new View(reply.number(0), reply.number(1), reply.number(2), messages);
        }
    }
}
