package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.ChatScripts.ChatScript;
import dev.pigeonhole.codec.LiveEventCodec;
import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.PrivateChatException;
import dev.pigeonhole.domain.model.StoreUnavailableException;
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
import dev.pigeonhole.domain.model.chat.RememberedSend;
import dev.pigeonhole.domain.model.chat.Sent;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.port.out.Chats;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Group chats on Redis: the domain's {@link Chat} aggregate, run as one Lua script per operation
 * ({@code lua/chat.lua} transliterates it step by step), so each operation is atomic and, on a
 * cluster, runs on the one node that holds the chat. This class only builds each script's call
 * ({@link ChatScripts}) and turns its answer into the domain's outcome or refusal.
 *
 * <p>What a script cannot reach on a cluster is the user's index of chats
 * ({@code user:{u}:chats}, another slot): open, join and leave update it in a second, pipelined
 * step, after the chat's own change has succeeded ({@link ChatIndex}, which says how a lost or late
 * step is mended). The chat's members stay the truth; the index only says where to look, so
 * {@link #pending} and {@link #chatsOf} skip a chat the index still lists but the user is no
 * longer in.
 *
 * <p>A send's rate limit is the sender's bucket in the chat, a hash field of the chat's own
 * {@code buckets} key, taken inside the send script: a send stays one round trip.
 *
 * <p>Round trips: send, acknowledge and read 1; pending and chatsOf 2 whatever the number of
 * chats (on a single node, pending's second is one script for every chat); a batch acknowledge 1 on a single node and 2 on a cluster, whatever the number of
 * chats; open, join and leave 2 (1 in the book layout, whose chat scripts keep the index).
 *
 * <p>It stays one class, past the length of most, because it is the one place where each chat
 * script's answer words meet the domain's outcomes and refusals: the operations over many chats
 * (pending, the batch acknowledge, grouping by node) decode the same answers with the same
 * helpers as the single-chat ones, and split apart they would need those helpers shared anyway.
 */
public final class RedisChats implements Chats {

    /** How long a send in the book layout waits for a book client's lock before giving up. */
    private static final Duration BOOK_LOCK_PATIENCE = Duration.ofSeconds(2);

    private final RedisDriver redis;
    private final KeyLayout keys;
    private final Limits limits;
    private final PublishMode publishing;
    private final ChatIndex index;

    public RedisChats(RedisDriver redis, KeyLayout keys, Limits limits, PublishMode publishing) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.publishing = Objects.requireNonNull(publishing, "publishing");
        this.index = new ChatIndex(redis, keys);
        if (redis.isCluster() && !keys.clusterSafe()) {
            throw new IllegalArgumentException("the book key layout is for a single Redis node: its keys carry no hash"
                    + " tags, so one chat's keys would land on different cluster nodes; use the tagged layout");
        }
    }

    /**
     * Random, as every store's, except in the book layout, which counts chats in {@code ids:chat:}
     * as the book's own code does, so the two never hand out the same id. That layout's ids can
     * therefore be guessed.
     */
    @Override
    public ChatId newChatId() {
        if (!keys.indexHoldsCursors()) {
            return Chats.super.newChatId();
        }
        // The counter alone never repeats itself, but a creator may have chosen "7" already.
        while (true) {
            long next = Reply.of(redis.run(call(Scripts.COUNTER_NEXT, keys.chatIdCounter())), Scripts.COUNTER_NEXT)
                    .number(0);
            ChatId candidate = ChatId.of(Long.toString(next));
            String members = keys.chat(candidate).members();
            if (Reply.of(redis.run(call(Scripts.CHAT_EXISTS, members)), Scripts.CHAT_EXISTS).number(0) == 0) {
                return candidate;
            }
        }
    }

    @Override
    public Opened open(ChatId chat, UserId creator, Set<UserId> members, Access access, String body, Instant at) {
        var script = new ChatScripts.Open(posting(chat, creator, at, body, Optional.empty(), RateLimit.NONE), access,
                List.copyOf(members));
        Answered<ChatScripts.Open.Answer> answered = waitingForBookLock(chat, () -> run(script));
        Reply reply = answered.reply();
        return switch (answered.word()) {
            case OPENED -> {
                Set<UserId> everyone = new HashSet<>();
                reply.texts(1).forEach(member -> everyone.add(UserId.of(member)));
                index.add(everyone, chat, reply.number(2));
                Message first = new Message(reply.number(0), at, creator, body);
                yield new Opened(chat, new Sent(chat, first, false), everyone);
            }
            case TOO_MANY_MEMBERS -> throw Chat.tooManyMembers(limits.maxMembers(), Math.toIntExact(reply.number(0)));
            case EXISTS -> throw new ChatAlreadyExistsException(chat);
            case LOCKED -> throw answered.unexpected();
        };
    }

    @Override
    public Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key,
                        RateLimit rate) {
        var script = new ChatScripts.Send(posting(chat, sender, at, body, key, rate));
        Answered<ChatScripts.Send.Answer> answered = waitingForBookLock(chat, () -> run(script));
        Reply reply = answered.reply();
        return switch (answered.word()) {
            case SENT -> new Message(reply.number(0), at, sender, body);
            case REPEAT -> remembered(reply.text(0)).replay(chat, key.orElseThrow(), sender, body).message();
            case NO_CHAT -> throw new UnknownChatException(chat);
            case NOT_MEMBER -> throw new NotAMemberException(sender, chat);
            case RATE_LIMITED -> throw rate.refusal(RateLimits.Write.SEND,
                    Duration.ofMillis(reply.number(0)));
            case LOCKED -> throw answered.unexpected();
        };
    }

    /** A remembered send as chat.lua's remember() stores it: "id:time:digest". */
    private static RememberedSend remembered(String stored) {
        String[] parts = stored.split(":", 3);
        return new RememberedSend(Long.parseLong(parts[0]), Instant.ofEpochMilli(Long.parseLong(parts[1])), parts[2]);
    }

    /**
     * One script per node reads every chat that node holds: on a single node, one script; on a
     * cluster, one per node, all in one pipelined round trip.
     */
    @Override
    public List<PendingChat> pending(UserId user, int perChatLimit) {
        List<ChatId> chats = index.list(user);
        if (chats.isEmpty()) {
            return List.of();
        }
        List<ChatScripts.PendingAll> scripts = new ArrayList<>();
        byNode(chats).forEach(onNode -> scripts.add(new ChatScripts.PendingAll(user, onNode, perChatLimit)));
        Map<ChatId, PendingChat> found = new HashMap<>();
        for (Answered<ChatScripts.PendingAll.Answer> answered : runAll(scripts)) {
            var script = (ChatScripts.PendingAll) answered.script();
            List<Reply> views = script.views(answered.reply());
            for (int i = 0; i < views.size(); i++) {
                ChatId chat = script.chats().get(i);
                pendingIn(chat, views.get(i), answered.lua()).ifPresent(pending -> found.put(chat, pending));
            }
        }
        List<PendingChat> pending = new ArrayList<>(found.size());
        chats.forEach(chat -> Optional.ofNullable(found.get(chat)).ifPresent(pending::add));
        return List.copyOf(pending);
    }

    /** What a read from the member's cursor answered, as pending; none where the index was stale. */
    private static Optional<PendingChat> pendingIn(ChatId chat, Reply read, LuaScript script) {
        return switch (read.word(ChatScripts.Read.Answer.class, script)) {
            case READ -> {
                var view = ChatScripts.Read.View.of(read);
                yield Optional.of(view.history().pending(chat, view.cursor(), view.page()));
            }
            // The index still lists a chat the user has left, or one just deleted.
            case NO_CHAT, NOT_MEMBER -> Optional.empty();
        };
    }

    /** The batch's script with one chat, which is one round trip on a cluster too. */
    @Override
    public void acknowledge(UserId user, ChatId chat, long upTo) {
        acknowledge(user, new TreeMap<>(Map.of(chat, upTo)));
    }

    /**
     * On a single node, one script checks every chat and then moves every cursor: one round trip,
     * atomic whatever K. On a cluster a script reaches only the slots of its own node, so a batch
     * over several nodes takes two pipelined round trips, a script per node in each: every chat
     * checked, nothing moved; then, only if none refused, every cursor moved. A chat that changes
     * between the two (its member leaves it) is refused by the second, which has then moved the
     * others: acknowledging is forward only and the member's own, so that is what acknowledging
     * them one by one would have done.
     */
    @Override
    public void acknowledge(UserId user, SortedMap<ChatId, Long> upTo) {
        List<List<ChatId>> nodes = byNode(List.copyOf(upTo.keySet()));
        if (nodes.size() == 1) {
            refuseIfNotAcknowledged(runAll(List.of(new ChatScripts.AcknowledgeAll(user, upTo, false))));
            return;
        }
        List<ChatScripts.AcknowledgeAll> checks = new ArrayList<>(nodes.size());
        List<ChatScripts.AcknowledgeAll> moves = new ArrayList<>(nodes.size());
        for (List<ChatId> onNode : nodes) {
            SortedMap<ChatId, Long> part = new TreeMap<>();
            onNode.forEach(chat -> part.put(chat, upTo.get(chat)));
            checks.add(new ChatScripts.AcknowledgeAll(user, part, true));
            moves.add(new ChatScripts.AcknowledgeAll(user, part, false));
        }
        refuseIfNotAcknowledged(runAll(checks));
        refuseIfNotAcknowledged(runAll(moves));
    }

    /**
     * The chats grouped by the node that holds them, each group in the given order: one group on
     * a single node.
     */
    private List<List<ChatId>> byNode(List<ChatId> chats) {
        if (!redis.isCluster()) {
            return List.of(chats);
        }
        Map<String, List<ChatId>> groups = new LinkedHashMap<>();
        for (ChatId chat : chats) {
            groups.computeIfAbsent(redis.nodeOf(keys.chat(chat).members()), node -> new ArrayList<>()).add(chat);
        }
        return List.copyOf(groups.values());
    }

    /** Refuses as the first refused chat in ChatId order would be refused alone; nothing if none was. */
    private void refuseIfNotAcknowledged(List<Answered<ChatScripts.AcknowledgeAll.Answer>> answers) {
        answers.stream()
                .filter(answered -> answered.word() != ChatScripts.AcknowledgeAll.Answer.ACKNOWLEDGED)
                .min(Comparator.comparing(answered -> ((ChatScripts.AcknowledgeAll) answered.script())
                        .refused(answered.reply())))
                .ifPresent(this::refuse);
    }

    private void refuse(Answered<ChatScripts.AcknowledgeAll.Answer> answered) {
        var batch = (ChatScripts.AcknowledgeAll) answered.script();
        Reply reply = answered.reply();
        switch (answered.word()) {
            case ACKNOWLEDGED -> {
            }
            case NO_CHAT -> throw new UnknownChatException(batch.refused(reply));
            case NOT_MEMBER -> throw new NotAMemberException(batch.member(), batch.refused(reply));
            case BEYOND_LAST -> {
                ChatId chat = batch.refused(reply);
                throw Chat.beyondLastId(chat, batch.upTo().get(chat), reply.number(1));
            }
        }
    }

    @Override
    public MessagePage messagesAfter(UserId reader, ChatId chat, long after, int limit) {
        Answered<ChatScripts.Read.Answer> answered = run(new ChatScripts.Read(chat, reader, OptionalLong.of(after), limit));
        return switch (answered.word()) {
            case READ -> {
                var view = ChatScripts.Read.View.of(answered.reply());
                yield view.history().page(view.from(), view.page());
            }
            case NO_CHAT -> throw new UnknownChatException(chat);
            case NOT_MEMBER -> throw new NotAMemberException(reader, chat);
        };
    }

    @Override
    public Joined join(ChatId chat, UserId by, UserId user) {
        Answered<ChatScripts.Join.Answer> answered = run(new ChatScripts.Join(chat, by, user, limits.maxMembers()));
        Joined joined = switch (answered.word()) {
            case JOINED -> new Joined(chat, user, true);
            case ALREADY_MEMBER -> new Joined(chat, user, false);
            case NO_CHAT -> throw new UnknownChatException(chat);
            case NOT_MEMBER -> throw new NotAMemberException(by, chat);
            case PRIVATE -> throw new PrivateChatException(user, chat);
            case CHAT_FULL -> throw new ChatFullException(chat, limits.maxMembers());
        };
        // A member already in is indexed again too: that heals an index step lost to a crash.
        index.add(Set.of(user), chat, answered.reply().number(0));
        return joined;
    }

    @Override
    public Left leave(ChatId chat, UserId user) {
        Answered<ChatScripts.Leave.Answer> answered = run(new ChatScripts.Leave(chat, user));
        Reply reply = answered.reply();
        // Out already, or the chat gone: a leave tried again after its index step was lost gets that step done.
        return switch (answered.word()) {
            case LEFT -> {
                index.remove(user, chat, reply.number(1));
                yield new Left(chat, user, reply.number(0) == 1);
            }
            case NO_CHAT -> {
                index.remove(user, chat, reply.number(0));
                throw new UnknownChatException(chat);
            }
            case NOT_MEMBER -> {
                index.remove(user, chat, reply.number(0));
                throw new NotAMemberException(user, chat);
            }
        };
    }

    @Override
    public List<ChatSummary> chatsOf(UserId user) {
        List<ChatScripts.Summary> reads = new ArrayList<>();
        index.list(user).forEach(chat -> reads.add(new ChatScripts.Summary(chat, user)));

        List<ChatSummary> summaries = new ArrayList<>(reads.size());
        for (Answered<ChatScripts.Summary.Answer> answered : runAll(reads)) {
            Reply reply = answered.reply();
            switch (answered.word()) {
                case SUMMARY -> {
                    Set<UserId> members = new HashSet<>();
                    reply.texts(2).forEach(member -> members.add(UserId.of(member)));
                    ChatId chat = ((ChatScripts.Summary) answered.script()).chat();
                    Access access = Access.valueOf(reply.text(3));
                    summaries.add(new ChatSummary(chat, members, access, reply.number(0), reply.number(1)));
                }
                case NO_CHAT, NOT_MEMBER -> {
                }
            }
        }
        return List.copyOf(summaries);
    }

    /** A script's answer: its word, what came with it, and the call it answers. */
    private record Answered<A extends Enum<A>>(A word, Reply reply, ChatScript<A> script, LuaScript lua) {

        /** An answer the script gives, but not here: the script and Java disagree, which is a bug. */
        IllegalStateException unexpected() {
            return reply.unexpected(lua);
        }
    }

    private <A extends Enum<A>> Answered<A> run(ChatScript<A> script) {
        ScriptCall call = script.call(keys);
        return answered(script, call, redis.run(call));
    }

    /** The scripts in one pipelined round trip, answered in order. */
    private <A extends Enum<A>, S extends ChatScript<A>> List<Answered<A>> runAll(List<S> scripts) {
        List<ScriptCall> calls = new ArrayList<>(scripts.size());
        scripts.forEach(script -> calls.add(script.call(keys)));
        List<Object> replies = redis.runAll(calls);
        List<Answered<A>> answers = new ArrayList<>(scripts.size());
        for (int i = 0; i < scripts.size(); i++) {
            answers.add(answered(scripts.get(i), calls.get(i), replies.get(i)));
        }
        return answers;
    }

    private static <A extends Enum<A>> Answered<A> answered(ChatScript<A> script, ScriptCall call, Object raw) {
        Reply reply = Reply.of(raw, call.script());
        return new Answered<>(reply.word(script.answers(), call.script()), reply, script, call.script());
    }

    private ChatScripts.Posting posting(ChatId chat, UserId user, Instant sentAt, String body,
                                        Optional<IdempotencyKey> key, RateLimit rate) {
        String keyField = key.map(k -> k.scopedTo(user)).orElse("");
        String digest = key.isPresent() ? RememberedSend.digestOf(body) : "";
        return new ChatScripts.Posting(chat, user, BookMessageJson.tailOf(sentAt, user, body), sentAt.toEpochMilli(),
                keyField, IdempotencyKey.WINDOW.toMillis(), digest, limits.maxRetained(), limits.maxMembers(), rate,
                publishing, keys.chatChannel(chat), LiveEventCodec.messagePosted(chat, sentAt, user, body));
    }

    /**
     * Runs a send or an open, waiting while a book client holds the chat's lock. Only the book
     * layout ever answers LOCKED; the wait is short because the book holds it for one INCR and ZADD.
     */
    private <A extends Enum<A>> Answered<A> waitingForBookLock(ChatId chat, Supplier<Answered<A>> attempt) {
        long deadline = System.nanoTime() + BOOK_LOCK_PATIENCE.toNanos();
        long pauseNanos = 100_000;
        while (true) {
            Answered<A> answered = attempt.get();
            if (!answered.reply().is("LOCKED")) {
                return answered;
            }
            if (System.nanoTime() > deadline) {
                throw new StoreUnavailableException("chat " + chat + " stayed locked by another writer for "
                        + BOOK_LOCK_PATIENCE.toSeconds() + " s (lock:chat:" + chat + ")", null);
            }
            LockSupport.parkNanos(pauseNanos);
            pauseNanos = Math.min(pauseNanos * 2, 20_000_000);
        }
    }

    private static ScriptCall call(LuaScript script, String key) {
        return new ScriptCall(script, List.of(key), List.of());
    }
}
