package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.HistoryWindow;
import dev.pigeonhole.domain.model.chat.Message;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The Java side of the chat scripts that change nothing ({@code read()}, {@code pending()},
 * {@code view()} in {@code lua/chat_operations.lua}, and who is in a chat): as {@link ChatScripts} does for
 * the scripts that change a chat, one record per script, laying out its keys and arguments once
 * and decoding its answer once. Apart from those because these write nothing, so one script
 * serves both key layouts and none of them has a book twin.
 */
final class ChatReads {

    private static final ChatScripts.Variants READ = ChatScripts.Variants.reading("chat_read");
    private static final ChatScripts.Variants SUMMARY = ChatScripts.Variants.reading("chat_summary");
    private static final ChatScripts.Variants MEMBERSHIP = ChatScripts.Variants.reading("chat_membership");
    private static final RedisFunction PENDING = Functions.reading("chats_pending");

    private ChatReads() {
    }

    /** chat_read.lua: what the reader may read after {@code after}. */
    record Read(ChatId chat, UserId reader, long after, int limit) implements ChatScripts.ChatScript<Read.Answer> {

        sealed interface Answer permits View, ChatScripts.Refused {
        }

        /**
         * What the script read: the reader's cursor, the history window as the reader may see it
         * (from its join point on), where the page starts, and the page.
         */
        record View(long cursor, HistoryWindow history, long from, List<Message> page) implements Answer {
        }

        @Override
        public FunctionCall call(KeyLayout layout) {
            return ChatScripts.call(layout, READ, chat, List.of(),
                    List.of(chat.value(), reader.value(), Long.toString(after), Integer.toString(limit)));
        }

        @Override
        public Answer answer(Reply reply) {
            return view(reply);
        }

        /** A read's answer as read() and pending() in chat_operations.lua give it. */
        static Answer view(Reply reply) {
            if (!reply.is("READ")) {
                return new ChatScripts.Refused(reply.refusal());
            }
            List<String> texts = reply.texts(3);
            Message[] page = new Message[texts.size()];
            for (int i = 0; i < page.length; i++) {
                page[i] = BookMessageJson.message(texts.get(i));
            }
            HistoryWindow held = new HistoryWindow(reply.number(2), reply.number(1));
            return new View(reply.number(0), held.joinedAt(reply.number(4)), reply.number(5), List.of(page));
        }
    }

    /**
     * chats_pending.lua: pending() in chat_operations.lua, what the member has not read, in each chat in one
     * script. Answers each chat's answer as a {@link Read} gives it, in the order of {@link #chats}.
     */
    record Pending(UserId member, List<ChatId> chats, int limit) implements ChatScripts.ChatScript<List<Read.Answer>> {

        @Override
        public FunctionCall call(KeyLayout layout) {
            List<String> arguments = new ArrayList<>(chats.size() * KeyLayout.ChatKeys.COUNT + 2);
            arguments.add(member.value());
            arguments.add(Integer.toString(limit));
            chats.forEach(chat -> layout.chat(chat).addTo(arguments));
            // The first chat's keys, right after the two values, route the call.
            List<String> keys = arguments.subList(2, 2 + KeyLayout.ChatKeys.COUNT);
            return new FunctionCall(PENDING, keys, arguments);
        }

        @Override
        public List<Read.Answer> answer(Reply reply) {
            List<Read.Answer> views = new ArrayList<>(chats.size());
            for (int i = 0; i < chats.size(); i++) {
                views.add(Read.view(Reply.of(reply.values().get(i), PENDING)));
            }
            return views;
        }
    }

    /** chat_summary.lua. */
    record Summary(ChatId chat, UserId member) implements ChatScripts.ChatScript<Summary.Answer> {

        sealed interface Answer permits Listed, ChatScripts.Refused {
        }

        /** The chat as the member's chat list shows it. */
        record Listed(long cursor, long lastId, Set<UserId> members, Access access) implements Answer {

            ChatSummary summary(ChatId chat) {
                return new ChatSummary(chat, members, access, cursor, lastId);
            }
        }

        @Override
        public FunctionCall call(KeyLayout layout) {
            return ChatScripts.call(layout, SUMMARY, chat, List.of(), List.of(chat.value(), member.value()));
        }

        @Override
        public Answer answer(Reply reply) {
            return reply.is("SUMMARY")
                    ? new Listed(reply.number(0), reply.number(1), ChatScripts.users(reply.texts(2)), Access.valueOf(reply.text(3)))
                    : new ChatScripts.Refused(reply.refusal());
        }
    }

    /** chat_membership.lua: who is in the chat, asked by no one (the index sweep). */
    record Membership(ChatId chat) implements ChatScripts.ChatScript<Membership.Answer> {

        sealed interface Answer permits Members, Gone {
        }

        record Members(long generation, Set<UserId> members) implements Answer {
        }

        /** The chat does not exist: whatever an index lists of it was written at {@code staleGeneration} or before. */
        record Gone(long staleGeneration) implements Answer {
        }

        @Override
        public FunctionCall call(KeyLayout layout) {
            return ChatScripts.call(layout, MEMBERSHIP, chat, List.of(), List.of(chat.value()));
        }

        @Override
        public Answer answer(Reply reply) {
            return reply.is("MEMBERS")
                    ? new Members(reply.number(0), ChatScripts.users(reply.texts(1)))
                    : new Gone(reply.number(0));
        }
    }
}
