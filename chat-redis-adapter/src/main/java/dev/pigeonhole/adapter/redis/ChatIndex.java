package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Each user's index of its chats ({@code user:{u}:chats}), where pending and the chat list start.
 * It lives in another slot than any chat, so open, join and leave update it in a second step after
 * the chat's own script. Each step carries the membership generation that script handed out, and
 * the index keeps it as the chat's score, so a late remove never undoes a newer add.
 *
 * <p>A second step that is lost (a crash, a timeout between the two) leaves the index wrong until
 * it is mended: trying the operation again does (a join of a member already in lists the chat
 * again; a leave of someone already out drops it), and so does {@link #repair}, which the
 * {@link RedisIndexSweep} runs now and then. The chat's members stay the truth throughout: a chat
 * the index lists for someone who left is skipped by every read.
 *
 * <p>In the book layout the chat scripts keep the index ({@code seen:<user>}, which holds cursors)
 * in the chat's own step, so there is no second step, and nothing here writes.
 */
final class ChatIndex {

    private final RedisDriver redis;
    private final KeyLayout keys;

    ChatIndex(RedisDriver redis, KeyLayout keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** Lists the chat in each user's index at the change's generation, in one pipelined round trip. */
    void add(Set<UserId> users, ChatId chat, long generation) {
        if (keptByChatScripts()) {
            return;
        }
        List<FunctionCall> adds = new ArrayList<>(users.size());
        users.forEach(user -> adds.add(addCall(user, chat, generation)));
        redis.runAll(adds);
    }

    /** Drops the chat from the user's index, unless a change after {@code generation} listed it again. */
    void remove(UserId user, ChatId chat, long generation) {
        if (!keptByChatScripts()) {
            redis.run(removeCall(user, chat, generation));
        }
    }

    /** The user's chats in {@link ChatId} order (the book layout's index is sorted by cursor, not by name). */
    List<ChatId> list(UserId user) {
        List<ChatId> chats = listed(redis.run(listCall(user)));
        chats.sort(null);
        return chats;
    }

    /**
     * Mends the indexes around these users: every chat any of them lists, checked against its
     * members. A member whose index lacks the chat gets it back; one of these users whose index lists
     * a chat it is not in loses it. Three round trips whatever the numbers: the indexes, the chats'
     * members, the changes, each pipelined.
     */
    IndexRepair repair(Set<UserId> users) {
        if (keptByChatScripts() || users.isEmpty()) {
            return new IndexRepair(0, 0);
        }
        List<UserId> asked = List.copyOf(new TreeSet<>(users));
        List<FunctionCall> lists = new ArrayList<>(asked.size());
        asked.forEach(user -> lists.add(listCall(user)));
        List<Object> listReplies = redis.runAll(lists);
        Map<UserId, List<ChatId>> indexes = new LinkedHashMap<>();
        Set<ChatId> chats = new LinkedHashSet<>();
        for (int i = 0; i < asked.size(); i++) {
            List<ChatId> listed = listed(listReplies.get(i));
            indexes.put(asked.get(i), listed);
            chats.addAll(listed);
        }

        List<ChatReads.Membership> reads = new ArrayList<>(chats.size());
        chats.forEach(chat -> reads.add(new ChatReads.Membership(chat)));
        List<FunctionCall> readCalls = new ArrayList<>(reads.size());
        reads.forEach(read -> readCalls.add(read.call(keys)));
        List<Object> readReplies = redis.runAll(readCalls);

        List<FunctionCall> changes = new ArrayList<>();
        for (int i = 0; i < reads.size(); i++) {
            ChatId chat = reads.get(i).chat();
            ChatReads.Membership.Answer answer = reads.get(i).answer(Reply.of(readReplies.get(i),
                    readCalls.get(i).function()));
            long generation = switch (answer) {
                case ChatReads.Membership.Members members -> members.generation();
                case ChatReads.Membership.Gone gone -> gone.staleGeneration();
            };
            Set<UserId> members = answer instanceof ChatReads.Membership.Members in ? in.members() : Set.of();
            members.forEach(member -> changes.add(addCall(member, chat, generation)));
            indexes.forEach((user, listed) -> {
                if (listed.contains(chat) && !members.contains(user)) {
                    changes.add(removeCall(user, chat, generation));
                }
            });
        }
        int relisted = 0;
        int dropped = 0;
        List<Object> changed = redis.runAll(changes);
        for (int i = 0; i < changes.size(); i++) {
            FunctionCall change = changes.get(i);
            if (Reply.of(changed.get(i), change.function()).number(0) == 1) {
                if (change.function() == Functions.INDEX_ADD) {
                    relisted++;
                } else {
                    dropped++;
                }
            }
        }
        return new IndexRepair(relisted, dropped);
    }

    private boolean keptByChatScripts() {
        return keys.isBookLayout();
    }

    private FunctionCall addCall(UserId user, ChatId chat, long generation) {
        return new FunctionCall(Functions.INDEX_ADD, List.of(keys.chatsOf(user)),
                List.of(chat.value(), Long.toString(generation)));
    }

    private FunctionCall removeCall(UserId user, ChatId chat, long generation) {
        return new FunctionCall(Functions.INDEX_REMOVE, List.of(keys.chatsOf(user)),
                List.of(chat.value(), Long.toString(generation)));
    }

    private FunctionCall listCall(UserId user) {
        return new FunctionCall(Functions.INDEX_LIST, List.of(keys.chatsOf(user)), List.of());
    }

    private static List<ChatId> listed(Object raw) {
        List<ChatId> chats = new ArrayList<>();
        Reply.of(raw, Functions.INDEX_LIST).texts(0).forEach(chat -> chats.add(ChatId.of(chat)));
        return chats;
    }
}
