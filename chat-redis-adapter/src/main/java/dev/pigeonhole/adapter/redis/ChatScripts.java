package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.codec.LiveEventCodec;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.HistoryWindow;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.RateLimit;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SortedMap;

/**
 * The Java side of the chat scripts ({@code lua/chat.lua} and the scripts that call it): one
 * record per script, which lays out the script's arguments exactly once, and one enum per script
 * of the words it answers with. {@link RedisChats} switches over those words, so an answer that
 * nothing handles does not compile.
 *
 * <p>The book key layout has a twin for each script that changes a chat ({@code book_*.lua}, see
 * {@code book.lua}); {@link #call} is the one place that picks it and adds the keys it needs.
 */
final class ChatScripts {

    private ChatScripts() {
    }

    /** A script that runs one operation of the chat aggregate. */
    sealed interface ChatScript<A extends Enum<A>> permits Open, Send, AcknowledgeAll, Join, Leave, Read,
            PendingAll, Summary, Membership {

        ScriptCall call(KeyLayout layout);

        Class<A> answers();
    }

    /** A chat script, and its book-layout twin where the book needs one. */
    private record Variants(LuaScript tagged, LuaScript book) {

        static Variants changing(String name) {
            return new Variants(LuaScript.load(name, "bucket", "chat"),
                    LuaScript.load("book_" + name, "bucket", "chat", "book"));
        }

        static Variants reading(String name) {
            LuaScript script = LuaScript.load(name, "bucket", "chat");
            return new Variants(script, script);
        }
    }

    private static final Variants OPEN = Variants.changing("chat_open");
    private static final Variants SEND = Variants.changing("chat_send");
    private static final Variants JOIN = Variants.changing("chat_join");
    private static final Variants LEAVE = Variants.changing("chat_leave");
    private static final Variants READ = Variants.reading("chat_read");
    private static final Variants SUMMARY = Variants.reading("chat_summary");
    private static final Variants MEMBERSHIP = Variants.reading("chat_membership");
    /** One script for both layouts: it keeps the book's seen:<member> itself when given it. */
    private static final LuaScript ACKNOWLEDGE_ALL = LuaScript.load("chats_acknowledge", "bucket", "chat");
    private static final LuaScript PENDING_ALL = LuaScript.load("chats_pending", "bucket", "chat");

    /**
     * The call of a chat script: the chat's keys, and in the book layout its lock and the
     * {@code seen:<user>} of each user the operation is about, which the book twin keeps current.
     */
    private static ScriptCall call(KeyLayout layout, Variants script, ChatId chat, List<UserId> about,
                                   List<String> arguments) {
        KeyLayout.ChatKeys chatKeys = layout.chat(chat);
        if (!layout.indexHoldsCursors() || script.book() == script.tagged()) {
            return new ScriptCall(script.tagged(), chatKeys.all(), arguments);
        }
        List<String> keys = new ArrayList<>(chatKeys.all());
        keys.add(chatKeys.sendLock().orElseThrow());
        about.forEach(user -> keys.add(layout.chatsOf(user)));
        return new ScriptCall(script.book(), keys, arguments);
    }

    /**
     * What a send or an open posts, as {@code posting_arguments()} in chat.lua reads it.
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

    /** chat_open.lua: answers OPENED with the first message's id, every member and the membership generation. */
    record Open(Posting first, Access access, List<UserId> others) implements ChatScript<Open.Answer> {

        enum Answer { OPENED, TOO_MANY_MEMBERS, EXISTS, LOCKED }

        @Override
        public ScriptCall call(KeyLayout layout) {
            List<String> arguments = new ArrayList<>(first.arguments());
            arguments.add(access.name());
            others.forEach(other -> arguments.add(other.value()));
            List<UserId> about = new ArrayList<>();
            about.add(first.user());
            about.addAll(others);
            return ChatScripts.call(layout, OPEN, first.chat(), about, arguments);
        }

        @Override
        public Class<Answer> answers() {
            return Answer.class;
        }
    }

    /**
     * chat_send.lua: answers SENT with the new id, REPEAT with "id:time:digest" remembered under
     * the key, or RATE_LIMITED with the milliseconds until the sender's bucket has a token.
     */
    record Send(Posting message) implements ChatScript<Send.Answer> {

        enum Answer { SENT, REPEAT, NO_CHAT, NOT_MEMBER, RATE_LIMITED, LOCKED }

        @Override
        public ScriptCall call(KeyLayout layout) {
            return ChatScripts.call(layout, SEND, message.chat(), List.of(message.user()), message.arguments());
        }

        @Override
        public Class<Answer> answers() {
            return Answer.class;
        }
    }

    /**
     * chats_acknowledge.lua over the chats of {@code upTo}, in its order: answers ACKNOWLEDGED, or
     * the refusal of the first chat refused, with that chat's position (from 1) first. Only
     * {@code checkOnly}, it moves nothing. The first chat's keys route the call; every chat's go
     * as arguments, since a call's declared keys must share one slot even where the script may
     * reach several.
     */
    record AcknowledgeAll(UserId member, SortedMap<ChatId, Long> upTo, boolean checkOnly)
            implements ChatScript<AcknowledgeAll.Answer> {

        enum Answer { ACKNOWLEDGED, NO_CHAT, NOT_MEMBER, BEYOND_LAST }

        @Override
        public ScriptCall call(KeyLayout layout) {
            List<String> arguments = new ArrayList<>(upTo.size() * (2 + KeyLayout.ChatKeys.COUNT) + 3);
            arguments.add(checkOnly ? "CHECK" : "MOVE");
            arguments.add(member.value());
            arguments.add(layout.indexHoldsCursors() ? layout.chatsOf(member) : "");
            upTo.forEach((chat, up) -> {
                arguments.add(chat.value());
                arguments.add(Long.toString(up));
                arguments.addAll(layout.chat(chat).all());
            });
            return new ScriptCall(ACKNOWLEDGE_ALL, layout.chat(upTo.firstKey()).all(), arguments);
        }

        @Override
        public Class<Answer> answers() {
            return Answer.class;
        }

        /** The chat a refusal is about: the script names it by its position. */
        ChatId refused(Reply reply) {
            return List.copyOf(upTo.keySet()).get(Math.toIntExact(reply.number(0)) - 1);
        }
    }

    /** chat_join.lua: {@code by} brings {@code user} in; JOINED and ALREADY_MEMBER carry the membership generation. */
    record Join(ChatId chat, UserId by, UserId user, int maxMembers) implements ChatScript<Join.Answer> {

        enum Answer { JOINED, ALREADY_MEMBER, NO_CHAT, NOT_MEMBER, PRIVATE, CHAT_FULL }

        @Override
        public ScriptCall call(KeyLayout layout) {
            return ChatScripts.call(layout, JOIN, chat, List.of(user),
                    List.of(chat.value(), by.value(), user.value(), Integer.toString(maxMembers)));
        }

        @Override
        public Class<Answer> answers() {
            return Answer.class;
        }
    }

    /**
     * chat_leave.lua: answers LEFT with 1 when the chat went with its last member, then the membership
     * generation; NO_CHAT and NOT_MEMBER carry the generation up to which what the member's index
     * still lists of the chat is stale.
     */
    record Leave(ChatId chat, UserId member) implements ChatScript<Leave.Answer> {

        enum Answer { LEFT, NO_CHAT, NOT_MEMBER }

        @Override
        public ScriptCall call(KeyLayout layout) {
            return ChatScripts.call(layout, LEAVE, chat, List.of(member), List.of(chat.value(), member.value()));
        }

        @Override
        public Class<Answer> answers() {
            return Answer.class;
        }
    }

    /** chat_read.lua, after an id or, with none, after the reader's own cursor (pending). */
    record Read(ChatId chat, UserId reader, OptionalLong after, int limit) implements ChatScript<Read.Answer> {

        enum Answer { READ, NO_CHAT, NOT_MEMBER }

        @Override
        public ScriptCall call(KeyLayout layout) {
            String from = after.isPresent() ? Long.toString(after.getAsLong()) : "";
            return ChatScripts.call(layout, READ, chat, List.of(),
                    List.of(chat.value(), reader.value(), from, Integer.toString(limit)));
        }

        @Override
        public Class<Answer> answers() {
            return Answer.class;
        }

        /**
         * What READ carries: the reader's cursor, the history window as the reader may see it
         * (from its join point on), where the page starts, and the page.
         */
        record View(long cursor, HistoryWindow history, long from, List<Message> page) {

            static View of(Reply reply) {
                List<String> json = reply.texts(3);
                List<Message> page = new ArrayList<>(json.size());
                json.forEach(message -> page.add(BookMessageJson.message(message)));
                HistoryWindow held = new HistoryWindow(reply.number(2), reply.number(1));
                return new View(reply.number(0), held.joinedAt(reply.number(4)), reply.number(5), page);
            }
        }
    }

    /**
     * chats_pending.lua: {@link Read} from the member's cursor in each chat, in one script.
     * Answers PENDING, then each chat's own answer as a Read's ({@link #views}).
     */
    record PendingAll(UserId member, List<ChatId> chats, int limit) implements ChatScript<PendingAll.Answer> {

        enum Answer { PENDING }

        @Override
        public ScriptCall call(KeyLayout layout) {
            List<String> arguments = new ArrayList<>(chats.size() * KeyLayout.ChatKeys.COUNT + 2);
            arguments.add(member.value());
            arguments.add(Integer.toString(limit));
            chats.forEach(chat -> arguments.addAll(layout.chat(chat).all()));
            return new ScriptCall(PENDING_ALL, layout.chat(chats.getFirst()).all(), arguments);
        }

        @Override
        public Class<Answer> answers() {
            return Answer.class;
        }

        /** Each chat's answer, in the order of {@link #chats}, as a {@link Read} of it would give it. */
        List<Reply> views(Reply reply) {
            List<Reply> views = new ArrayList<>(chats.size());
            for (int i = 0; i < chats.size(); i++) {
                views.add(Reply.of(reply.values().get(i), PENDING_ALL));
            }
            return views;
        }
    }

    /**
     * chat_membership.lua: answers MEMBERS with the membership generation and every member, or NO_CHAT
     * with the generation up to which an index entry of the chat is stale.
     */
    record Membership(ChatId chat) implements ChatScript<Membership.Answer> {

        enum Answer { MEMBERS, NO_CHAT }

        @Override
        public ScriptCall call(KeyLayout layout) {
            return ChatScripts.call(layout, MEMBERSHIP, chat, List.of(), List.of(chat.value()));
        }

        @Override
        public Class<Answer> answers() {
            return Answer.class;
        }
    }

    /** chat_summary.lua: answers SUMMARY with the member's cursor, the last id, every member and the access. */
    record Summary(ChatId chat, UserId member) implements ChatScript<Summary.Answer> {

        enum Answer { SUMMARY, NO_CHAT, NOT_MEMBER }

        @Override
        public ScriptCall call(KeyLayout layout) {
            return ChatScripts.call(layout, SUMMARY, chat, List.of(), List.of(chat.value(), member.value()));
        }

        @Override
        public Class<Answer> answers() {
            return Answer.class;
        }
    }
}
