package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.ChatScripts.ChatScript;
import dev.pigeonhole.codec.LiveEventCodec;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.StoreUnavailableException;
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
import dev.pigeonhole.domain.port.out.Chats;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
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

/**
 * Group chats on Redis: the domain's {@link Chat} aggregate, run as one Lua script per operation
 * ({@code lua/chat.lua} and the two files after it transliterate it step by step), so each operation is atomic and, on a
 * cluster, runs on the one node that holds the chat. This class only builds each script's call and
 * turns its answer, decoded once by {@link ChatScripts}, into the domain's outcome; a refusal is
 * worded by {@link ChatRefusal}, the one place where the scripts' refusals meet the domain's.
 *
 * <p>What a script cannot reach on a cluster is the user's index of chats
 * ({@code user:{u}:chats}, another slot): open, join and leave update it in a second, pipelined
 * step, after the chat's own change has succeeded ({@link ChatIndex}, which says how a lost or late
 * step is mended). The chat's members stay the truth; the index only says where to look, so
 * {@link #pending} and {@link #chatsOf} skip a chat the index still lists but the user is no
 * longer in.
 *
 * <p>A send's rate limit is the sender's bucket in the chat, a sorted-set member of the chat's own
 * {@code buckets} key, taken inside the send script: a send stays one round trip.
 *
 * <p>Round trips: send, acknowledge, read, summaryOf and chatIdsOf 1; pending and chatsOf 2
 * whatever the number of chats (on a single node, pending's second is one script for every chat);
 * a batch acknowledge 1 on a single node and 2 on a cluster, whatever the number of chats; open,
 * join, accept and leave 2 (1 in the book layout, whose chat scripts keep the index).
 */
public final class RedisChats implements Chats {

    /** How long a send in the book layout waits for a book client's lock before giving up. */
    private static final Duration BOOK_LOCK_PATIENCE = Duration.ofSeconds(2);

    private final RedisDriver redis;
    private final KeyLayout keys;
    private final Limits limits;
    private final PublishMode publishing;
    private final ChatIndex index;
    private final Durability durability;

    public RedisChats(RedisDriver redis, KeyLayout keys, Limits limits, PublishMode publishing) {
        this(redis, keys, limits, publishing, Durability.NONE);
    }

    /**
     * As above; with a {@code durability} that waits for replicas, a send, an open, a join, an
     * accept and a leave are answered only once that many replicas hold them, and refused with
     * {@link NotDurableException} when fewer do in time.
     */
    public RedisChats(RedisDriver redis, KeyLayout keys, Limits limits, PublishMode publishing, Durability durability) {
        this.durability = Objects.requireNonNull(durability, "durability");
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
        if (!keys.isBookLayout()) {
            return Chats.super.newChatId();
        }
        // The counter alone never repeats itself, but a creator may have chosen "7" already.
        while (true) {
            long next = Reply.of(redis.run(call(Functions.COUNTER_NEXT, keys.chatIdCounter())), Functions.COUNTER_NEXT)
                    .number(0);
            ChatId candidate = ChatId.of(Long.toString(next));
            String members = keys.chatMembers(candidate);
            if (Reply.of(redis.run(call(Functions.CHAT_EXISTS, members)), Functions.CHAT_EXISTS).number(0) == 0) {
                return candidate;
            }
        }
    }

    @Override
    public Opened open(ChatId chat, UserId creator, Set<UserId> members, Access access, String body, Instant at) {
        var script = new ChatScripts.Open(posting(chat, creator, at, body, Optional.empty(), RateLimit.NONE), access,
                List.copyOf(members));
        Written<ChatScripts.Open.Answer> written = waitingForBookLock(chat, script);
        return switch (written.answer()) {
            case ChatScripts.Open.Opened opened -> {
                index.add(opened.members(), chat, opened.generation());
                requireConfirmed(written, "chat " + chat, OptionalLong.empty());
                Message first = new Message(opened.firstId(), at, creator, body);
                yield new Opened(chat, new Sent(chat, first, false), opened.members());
            }
            case ChatScripts.Refused refused -> throw refused.refusal().exception(chat, RateLimit.NONE);
        };
    }

    @Override
    public Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key,
                        RateLimit rate) {
        var script = new ChatScripts.Send(posting(chat, sender, at, body, key, rate));
        Written<ChatScripts.Send.Answer> written = waitingForBookLock(chat, script);
        return switch (written.answer()) {
            case ChatScripts.Send.Sent sent -> {
                requireConfirmed(written, "message " + sent.id() + " of chat " + chat, OptionalLong.of(sent.id()));
                yield new Message(sent.id(), at, sender, body);
            }
            case ChatScripts.Send.Repeat repeat -> {
                Message earlier = repeat.earlier().replay(chat, key.orElseThrow(), sender, body).message();
                requireConfirmed(written, "message " + earlier.id() + " of chat " + chat, OptionalLong.of(earlier.id()));
                yield earlier;
            }
            case ChatScripts.Refused refused -> throw refused.refusal().exception(chat, rate);
        };
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
        List<List<ChatId>> nodes = byNode(chats);
        List<ChatReads.Pending> scripts = new ArrayList<>(nodes.size());
        nodes.forEach(onNode -> scripts.add(new ChatReads.Pending(user, onNode, perChatLimit)));
        List<List<ChatReads.Read.Answer>> answers = runAll(scripts);
        List<PendingChat> pending = new ArrayList<>(chats.size());
        for (int node = 0; node < scripts.size(); node++) {
            List<ChatId> onNode = scripts.get(node).chats();
            for (int i = 0; i < onNode.size(); i++) {
                ChatId chat = onNode.get(i);
                // A refusal: the index still lists a chat the user has left, or one just deleted.
                if (answers.get(node).get(i) instanceof ChatReads.Read.View view) {
                    pending.add(view.history().pending(chat, view.cursor(), view.page()));
                }
            }
        }
        if (scripts.size() > 1) {
            // Back in the index's order, ChatId order, which grouping by node changed.
            pending.sort(Comparator.comparing(PendingChat::chat));
        }
        return List.copyOf(pending);
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
            groups.computeIfAbsent(redis.nodeOf(keys.chatMembers(chat)), node -> new ArrayList<>()).add(chat);
        }
        return List.copyOf(groups.values());
    }

    /** Refuses as the first refused chat in ChatId order would be refused alone; nothing if none was. */
    private static void refuseIfNotAcknowledged(List<ChatScripts.AcknowledgeAll.Answer> answers) {
        answers.stream()
                .filter(ChatScripts.AcknowledgeAll.RefusedIn.class::isInstance)
                .map(ChatScripts.AcknowledgeAll.RefusedIn.class::cast)
                .min(Comparator.comparing(ChatScripts.AcknowledgeAll.RefusedIn::chat))
                .ifPresent(refused -> {
                    throw refused.refusal().exception(refused.chat(), RateLimit.NONE);
                });
    }

    @Override
    public MessagePage read(UserId reader, ChatId chat, long after, int limit) {
        return switch (run(new ChatReads.Read(chat, reader, after, limit))) {
            case ChatReads.Read.View view -> view.history().page(view.from(), view.page());
            case ChatScripts.Refused refused -> throw refused.refusal().exception(chat, RateLimit.NONE);
        };
    }

    @Override
    public Joined join(ChatId chat, UserId by, UserId user) {
        return joined(chat, user, write(new ChatScripts.Join(chat, by, user, limits.maxMembers())));
    }

    @Override
    public Joined accept(ChatId chat, UserId inviter, UserId invitee, long joinPoint) {
        return joined(chat, invitee, write(new ChatScripts.Accept(chat, inviter, invitee, joinPoint,
                limits.maxMembers())));
    }

    /** A join's or an accept's answer, the user's index updated after it as after any join. */
    private Joined joined(ChatId chat, UserId user, Written<ChatScripts.Join.Answer> written) {
        return switch (written.answer()) {
            case ChatScripts.Join.Joined joined -> {
                // A member already in is indexed again too: that heals an index step lost to a crash.
                index.add(Set.of(user), chat, joined.generation());
                requireConfirmed(written, user + "'s membership of chat " + chat, OptionalLong.empty());
                yield new Joined(chat, user, joined.added());
            }
            case ChatScripts.Refused refused -> throw refused.refusal().exception(chat, RateLimit.NONE);
        };
    }

    @Override
    public Left leave(ChatId chat, UserId user) {
        Written<ChatScripts.Leave.Answer> written = write(new ChatScripts.Leave(chat, user));
        return switch (written.answer()) {
            case ChatScripts.Leave.Left left -> {
                index.remove(user, chat, left.generation());
                requireConfirmed(written, user + "'s leaving chat " + chat, OptionalLong.empty());
                yield new Left(chat, user, left.chatDeleted());
            }
            // Out already, or the chat gone: a leave tried again after its index step was lost gets that step done.
            case ChatScripts.Leave.Out out -> {
                index.remove(user, chat, out.staleGeneration());
                throw out.refusal().exception(chat, RateLimit.NONE);
            }
        };
    }

    @Override
    public List<ChatSummary> chatsOf(UserId user) {
        List<ChatReads.Summary> reads = new ArrayList<>();
        index.list(user).forEach(chat -> reads.add(new ChatReads.Summary(chat, user)));
        List<ChatReads.Summary.Answer> answers = runAll(reads);
        List<ChatSummary> summaries = new ArrayList<>(reads.size());
        for (int i = 0; i < reads.size(); i++) {
            // A refusal: the index still lists a chat the user has left, or one just deleted.
            if (answers.get(i) instanceof ChatReads.Summary.Listed listed) {
                summaries.add(listed.summary(reads.get(i).chat()));
            }
        }
        return List.copyOf(summaries);
    }

    @Override
    public ChatSummary summaryOf(UserId member, ChatId chat) {
        return switch (run(new ChatReads.Summary(chat, member))) {
            case ChatReads.Summary.Listed listed -> listed.summary(chat);
            case ChatScripts.Refused refused -> throw refused.refusal().exception(chat, RateLimit.NONE);
        };
    }

    /**
     * The index alone, which may still list a chat whose leave lost its second step until that is
     * mended ({@link ChatIndex}); the chat's own scripts check membership wherever it decides
     * anything.
     */
    @Override
    public List<ChatId> chatIdsOf(UserId user) {
        return index.list(user);
    }

    private <A> A run(ChatScript<A> script) {
        FunctionCall call = script.call(keys);
        return script.answer(Reply.of(redis.run(call), call.function()));
    }

    /** A script that changes the chat, waiting for replicas after it as {@link #durability} asks. */
    private <A> Written<A> write(ChatScript<A> script) {
        FunctionCall call = script.call(keys);
        Durability.Written written = durability.write(redis, call);
        return new Written<>(script.answer(Reply.of(written.reply(), call.function())), written.confirmed());
    }

    /**
     * A changing script's answer, and whether the replicas asked for hold it. Checked only once
     * the answer is known to be a change: a refusal changed nothing, so it has nothing to lose.
     */
    private record Written<A>(A answer, boolean confirmed) {
    }

    private void requireConfirmed(Written<?> written, String what, OptionalLong messageId) {
        if (!written.confirmed()) {
            throw durability.notDurable(what, messageId);
        }
    }

    /** The scripts in one pipelined round trip, answered in order. */
    private <A, S extends ChatScript<A>> List<A> runAll(List<S> scripts) {
        List<FunctionCall> calls = new ArrayList<>(scripts.size());
        scripts.forEach(script -> calls.add(script.call(keys)));
        List<Object> replies = redis.runAll(calls);
        List<A> answers = new ArrayList<>(scripts.size());
        for (int i = 0; i < scripts.size(); i++) {
            answers.add(scripts.get(i).answer(Reply.of(replies.get(i), calls.get(i).function())));
        }
        return answers;
    }

    private ChatScripts.Posting posting(ChatId chat, UserId user, Instant at, String body,
                                        Optional<IdempotencyKey> key, RateLimit rate) {
        String keyField = key.map(k -> k.scopedTo(user)).orElse("");
        String digest = key.isPresent() ? RememberedSend.digestOf(body) : "";
        return new ChatScripts.Posting(chat, user, BookMessageJson.tailOf(at, user, body), at.toEpochMilli(),
                keyField, IdempotencyKey.WINDOW.toMillis(), digest, limits.maxRetained(), limits.maxMembers(), rate,
                publishing, keys.chatChannel(chat), LiveEventCodec.messagePosted(chat, at, user, body));
    }

    /**
     * Runs a send or an open, waiting while a book client holds the chat's lock. Only the book
     * layout ever answers so; the wait is short because the book holds it for one INCR and ZADD.
     */
    private <A> Written<A> waitingForBookLock(ChatId chat, ChatScript<A> script) {
        long deadline = System.nanoTime() + BOOK_LOCK_PATIENCE.toNanos();
        long pauseNanos = 100_000;
        while (true) {
            Written<A> written = write(script);
            if (!(written.answer() instanceof ChatScripts.Refused refused
                    && refused.refusal() instanceof ChatRefusal.Locked)) {
                return written;
            }
            if (System.nanoTime() > deadline) {
                throw new StoreUnavailableException("chat " + chat + " stayed locked by another writer for "
                        + BOOK_LOCK_PATIENCE.toSeconds() + " s (lock:chat:" + chat + ")", null);
            }
            LockSupport.parkNanos(pauseNanos);
            pauseNanos = Math.min(pauseNanos * 2, 20_000_000);
        }
    }

    private static FunctionCall call(RedisFunction function, String key) {
        return new FunctionCall(function, List.of(key), List.of());
    }
}
