package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.codec.LiveEventCodec;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.HistoryWindow;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.RememberedSend;
import dev.pigeonhole.domain.model.limits.RateLimit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;

/**
 * The Java side of the chat scripts ({@code lua/chat.lua} and the files after it): one
 * record per script, which lays out the script's keys and arguments exactly once and decodes its
 * answer exactly once, into records of its own and a {@link ChatRefusal}. {@link RedisChats}
 * switches over those records, so no reply is read by position past this class, and an answer
 * nothing handles does not compile.
 *
 * <p>The book key layout has a twin for each script that changes a chat ({@code book_*.lua}, see
 * {@code book.lua}); {@link #call} is the one place that picks it and adds the keys it needs.
 */
final class ChatScripts {

    private ChatScripts() {
    }

    /** A script that runs one operation of the chat aggregate, and what it answers. */
    sealed interface ChatScript<A> permits Open, Send, AcknowledgeAll, Join, Accept, Leave, ChatReads.Read,
            ChatReads.Pending, ChatReads.Summary, ChatReads.Membership {

        FunctionCall call(KeyLayout layout);

        A answer(Reply reply);
    }

    /** The answer of a script that only refuses in {@link ChatRefusal}'s words. */
    record Refused(ChatRefusal refusal) implements Open.Answer, Send.Answer, Join.Answer, ChatReads.Read.Answer,
            ChatReads.Summary.Answer {
    }

    /** A chat script, and its book-layout twin where the book needs one. */
    record Variants(RedisFunction tagged, RedisFunction book) {

        static Variants changing(String name) {
            return new Variants(Functions.writing(name), Functions.writing("book_" + name));
        }

        static Variants reading(String name) {
            RedisFunction function = Functions.reading(name);
            return new Variants(function, function);
        }
    }

    private static final Variants OPEN = Variants.changing("chat_open");
    private static final Variants SEND = Variants.changing("chat_send");
    private static final Variants JOIN = Variants.changing("chat_join");
    private static final Variants ACCEPT = Variants.changing("chat_accept");
    private static final Variants LEAVE = Variants.changing("chat_leave");
    /** One script for both layouts: it keeps the book's seen:<member> itself when given it. */
    private static final RedisFunction ACKNOWLEDGE_ALL = Functions.writing("chats_acknowledge");

    /**
     * The call of a chat script: the chat's keys, and in the book layout its lock and the
     * {@code seen:<user>} of each user the operation is about, which the book twin keeps current.
     */
    static FunctionCall call(KeyLayout layout, Variants script, ChatId chat, List<UserId> about,
                                   List<String> arguments) {
        KeyLayout.ChatKeys chatKeys = layout.chat(chat);
        if (!layout.isBookLayout() || script.book() == script.tagged()) {
            return new FunctionCall(script.tagged(), chatKeys.all(), arguments);
        }
        List<String> keys = new ArrayList<>(chatKeys.all());
        keys.add(chatKeys.sendLock().orElseThrow());
        about.forEach(user -> keys.add(layout.chatsOf(user)));
        return new FunctionCall(script.book(), keys, arguments);
    }

    /**
     * What a send or an open posts, as {@code posting_arguments()} in chat_functions.lua reads it.
     *
     * @param tail       the message's JSON after its id, which only the script knows
     * @param keyField   the sender and its idempotency key, or empty for a send without one
     * @param bodyDigest what the chat remembers of the body under the key
     * @param rate       the sender's send bucket in the chat; {@link RateLimit#NONE} for an open
     * @param event      the message's announcement, which the script completes with the id
     */
    record Posting(ChatId chat, UserId user, String tail, long atMillis, String keyField, long keyWindowMillis,
                   String bodyDigest, int maxRetained, int maxMembers, RateLimit rate, PublishMode publishing,
                   String channel, LiveEventCodec.Unnumbered event) {

        List<String> arguments() {
            return List.of(chat.value(), user.value(), tail, Long.toString(atMillis), keyField,
                    Long.toString(keyWindowMillis), bodyDigest, Integer.toString(maxRetained),
                    Integer.toString(maxMembers), Integer.toString(rate.burst()), Long.toString(rate.intervalMillis()),
                    publishing.scriptArgument(), channel, event.beforeId(), event.afterId());
        }
    }

    /** chat_open.lua. */
    record Open(Posting first, Access access, List<UserId> others) implements ChatScript<Open.Answer> {

        sealed interface Answer permits Opened, Refused {
        }

        /** Opened, its first message under {@code firstId}, with every member and the membership generation. */
        record Opened(long firstId, Set<UserId> members, long generation) implements Answer {
        }

        @Override
        public FunctionCall call(KeyLayout layout) {
            List<String> arguments = new ArrayList<>(first.arguments());
            arguments.add(access.name());
            others.forEach(other -> arguments.add(other.value()));
            List<UserId> about = new ArrayList<>();
            about.add(first.user());
            about.addAll(others);
            return ChatScripts.call(layout, OPEN, first.chat(), about, arguments);
        }

        @Override
        public Answer answer(Reply reply) {
            return reply.is("OPENED")
                    ? new Opened(reply.number(0), users(reply.texts(1)), reply.number(2))
                    : new Refused(reply.refusal());
        }
    }

    /** chat_send.lua. */
    record Send(Posting message) implements ChatScript<Send.Answer> {

        sealed interface Answer permits Sent, Repeat, Refused {
        }

        record Sent(long id) implements Answer {
        }

        /** Sent before under the key: what the chat remembers of it, without its body. */
        record Repeat(RememberedSend earlier) implements Answer {
        }

        @Override
        public FunctionCall call(KeyLayout layout) {
            return ChatScripts.call(layout, SEND, message.chat(), List.of(message.user()), message.arguments());
        }

        @Override
        public Answer answer(Reply reply) {
            return switch (reply.status()) {
                case "SENT" -> new Sent(reply.number(0));
                case "REPEAT" -> new Repeat(remembered(reply.text(0)));
                default -> new Refused(reply.refusal());
            };
        }

        /** A remembered send as chat_messages.lua's remember() stores it: "id:time:digest". */
        private static RememberedSend remembered(String stored) {
            String[] parts = stored.split(":", 3);
            return new RememberedSend(Long.parseLong(parts[0]), Instant.ofEpochMilli(Long.parseLong(parts[1])),
                    parts[2]);
        }
    }

    /**
     * chats_acknowledge.lua over the chats of {@code upTo}, in its order; only {@code checkOnly},
     * it moves nothing. The first chat's keys route the call; every chat's go as arguments, since a
     * call's declared keys must share one slot even where the script may reach several.
     */
    record AcknowledgeAll(UserId member, SortedMap<ChatId, Long> upTo, boolean checkOnly)
            implements ChatScript<AcknowledgeAll.Answer> {

        sealed interface Answer permits Acknowledged, RefusedIn {
        }

        record Acknowledged() implements Answer {
        }

        /** The first chat refused, in the batch's order, and its refusal. */
        record RefusedIn(ChatId chat, ChatRefusal refusal) implements Answer {
        }

        @Override
        public FunctionCall call(KeyLayout layout) {
            List<String> arguments = new ArrayList<>(upTo.size() * (2 + KeyLayout.ChatKeys.COUNT) + 3);
            arguments.add(checkOnly ? "CHECK" : "MOVE");
            arguments.add(member.value());
            arguments.add(layout.isBookLayout() ? layout.chatsOf(member) : "");
            upTo.forEach((chat, up) -> {
                arguments.add(chat.value());
                arguments.add(Long.toString(up));
                layout.chat(chat).addTo(arguments);
            });
            // The first chat's keys, after the three values and that chat's id and upTo, route the call.
            List<String> keys = arguments.subList(5, 5 + KeyLayout.ChatKeys.COUNT);
            return new FunctionCall(ACKNOWLEDGE_ALL, keys, arguments);
        }

        /** A refusal names its chat by its position in the batch (from 1), right after its word. */
        @Override
        public Answer answer(Reply reply) {
            if (reply.is("ACKNOWLEDGED")) {
                return new Acknowledged();
            }
            ChatId chat = List.copyOf(upTo.keySet()).get(Math.toIntExact(reply.number(0)) - 1);
            return new RefusedIn(chat, reply.withoutFirst().refusal());
        }
    }

    /** chat_join.lua: {@code by} brings {@code user} in. */
    record Join(ChatId chat, UserId by, UserId user, int maxMembers) implements ChatScript<Join.Answer> {

        sealed interface Answer permits Joined, Refused {
        }

        /** In, newly or ({@code added} false) already, with the membership generation. */
        record Joined(boolean added, long generation) implements Answer {
        }

        @Override
        public FunctionCall call(KeyLayout layout) {
            return ChatScripts.call(layout, JOIN, chat, List.of(user),
                    List.of(chat.value(), by.value(), user.value(), Integer.toString(maxMembers)));
        }

        @Override
        public Answer answer(Reply reply) {
            return joined(reply);
        }

        /** How bring_in() in chat_operations.lua answers, after a join's checks or an accept's. */
        static Answer joined(Reply reply) {
            return switch (reply.status()) {
                case "JOINED" -> new Joined(true, reply.number(0));
                case "ALREADY_MEMBER" -> new Joined(false, reply.number(0));
                default -> new Refused(reply.refusal());
            };
        }
    }

    /** chat_accept.lua: the invitee of {@code inviter} comes in at {@code joinPoint}; answers as a join does. */
    record Accept(ChatId chat, UserId inviter, UserId invitee, long joinPoint, int maxMembers)
            implements ChatScript<Join.Answer> {

        @Override
        public FunctionCall call(KeyLayout layout) {
            return ChatScripts.call(layout, ACCEPT, chat, List.of(invitee), List.of(chat.value(), inviter.value(),
                    invitee.value(), Long.toString(joinPoint), Integer.toString(maxMembers)));
        }

        @Override
        public Join.Answer answer(Reply reply) {
            return Join.joined(reply);
        }
    }

    /** chat_leave.lua. */
    record Leave(ChatId chat, UserId member) implements ChatScript<Leave.Answer> {

        sealed interface Answer permits Left, Out {
        }

        /** Out, the chat gone with its last member ({@code chatDeleted}), with the membership generation. */
        record Left(boolean chatDeleted, long generation) implements Answer {
        }

        /**
         * Refused: the member is out already, or the chat gone. Whatever the member's index still
         * lists of the chat was written at {@code staleGeneration} or before.
         */
        record Out(ChatRefusal refusal, long staleGeneration) implements Answer {
        }

        @Override
        public FunctionCall call(KeyLayout layout) {
            return ChatScripts.call(layout, LEAVE, chat, List.of(member), List.of(chat.value(), member.value()));
        }

        /** A refusal has the stale generation last (out_already() in chat_functions.lua). */
        @Override
        public Answer answer(Reply reply) {
            if (reply.is("LEFT")) {
                return new Left(reply.number(0) == 1, reply.number(1));
            }
            return new Out(reply.withoutLast().refusal(), reply.number(reply.values().size() - 1));
        }
    }

    static Set<UserId> users(List<String> names) {
        Set<UserId> users = new HashSet<>();
        names.forEach(name -> users.add(UserId.of(name)));
        return users;
    }
}
