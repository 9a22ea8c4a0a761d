package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.Chat;
import dev.pigeonhole.domain.model.chat.ChatSnapshot;
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
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.port.out.Chats;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;

/**
 * Group chats in PostgreSQL, the classic way: each change is one transaction that locks the
 * chat's row ({@code SELECT ... FOR UPDATE}), restores the domain's {@link Chat} aggregate from
 * its rows, applies the operation, and writes back what changed ({@link ChatRows}). So the rules
 * run here as the very Java the in-memory store runs, where Redis needs a Lua transliteration of
 * them: the two durable stores keep the rules in different places on purpose, and the contract
 * suite holds both to the same answers.
 *
 * <p>A message is announced with {@code NOTIFY} inside the transaction that stores it, which
 * PostgreSQL delivers on commit: never for a send rolled back, and in commit order. Ids are the
 * aggregate's, under the row lock, so they are gap-free under any number of senders and servers.
 *
 * <p>Each operation reads only what the aggregate will ask: a send, its sender's row (and the
 * keyed sends only under a key, the buckets only under a rate limit); a read, its reader's.
 * Pending and the chat list read every chat of the user in two statements, whatever their number.
 */
public final class PostgresChats implements Chats {

    /** Publishes an event on a channel inside the caller's transaction ({@link Notices}). */
    @FunctionalInterface
    interface Announcer {
        void announce(Connection connection, Channel channel, LiveEvent event) throws SQLException;
    }

    private final Transactions transactions;
    private final Limits limits;
    private final Announcer announcer;

    public PostgresChats(PostgresStore store, Limits limits) {
        this(store.transactions(), limits, store.notices()::announce);
    }

    /**
     * On transactions of the caller's own, for a test that counts the statements they run.
     *
     * @param announcer publishes a message's event inside the transaction that stores it
     */
    PostgresChats(Transactions transactions, Limits limits, Announcer announcer) {
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.announcer = Objects.requireNonNull(announcer, "announcer");
    }

    @Override
    public Opened open(ChatId chat, UserId creator, Set<UserId> members, Access access, String body, Instant at) {
        // Checked before any statement: too many members is wrong whatever the database holds.
        Chat opening = new Chat(chat, limits);
        Opened opened = opening.open(creator, members, access, body, at);
        ChatSnapshot after = opening.snapshot();
        ChatSnapshot before = new ChatSnapshot(chat, access, after.lastId(), after.firstAvailableId(), false,
                Map.of(), Map.of(), Map.of());
        return transactions.inTransaction("open " + chat, connection -> {
            if (!ChatRows.insert(connection, after)) {
                throw new ChatAlreadyExistsException(chat);
            }
            ChatRows.write(connection, before, after, List.of(opened.message()));
            announce(connection, opened.first());
            return opened;
        });
    }

    @Override
    public Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key,
                        RateLimit rate) {
        ChatRows.Parts parts = key.isPresent()
                ? (rate.isNone() ? ChatRows.Parts.WITH_KEYED_SENDS : ChatRows.Parts.WITH_BOTH)
                : (rate.isNone() ? ChatRows.Parts.CHAT_AND_MEMBERS : ChatRows.Parts.WITH_SEND_BUCKETS);
        return change("send to " + chat, chat, parts, Optional.of(sender), (connection, restored) -> {
            Sent sent = restored.send(sender, body, at, key, rate);
            if (!sent.repeat()) {
                announce(connection, sent);
            }
            return new Applied<>(sent.message(), sent.repeat() ? List.of() : List.of(sent.message()));
        });
    }

    @Override
    public void acknowledge(UserId user, ChatId chat, long upTo) {
        change("acknowledge in " + chat, chat, ChatRows.Parts.CHAT_AND_MEMBERS, Optional.empty(),
                (connection, restored) -> new Applied<>(restored.acknowledge(user, upTo), List.of()));
    }

    /**
     * One transaction that locks every chat's row (in the order of their ids, so batches cannot
     * deadlock each other), lets the aggregate check them all and then move the cursors, and
     * writes what moved: five statements whatever the number of chats.
     */
    @Override
    public void acknowledge(UserId user, SortedMap<ChatId, Long> upTo) {
        transactions.inTransaction("acknowledge " + upTo.size() + " chats", connection -> {
            Map<ChatId, ChatSnapshot> before = ChatRows.lockAll(connection, upTo.keySet());
            Map<ChatId, Chat> restored = new HashMap<>();
            before.forEach((chat, kept) -> restored.put(chat, Chat.restore(kept, limits)));
            Chat.acknowledgeAll(user, upTo, chat -> Optional.ofNullable(restored.get(chat)));
            Map<ChatId, ChatSnapshot> after = new HashMap<>();
            restored.forEach((chat, acknowledged) -> after.put(chat, acknowledged.snapshot()));
            ChatRows.writeAcknowledged(connection, before, after);
            return null;
        });
    }

    @Override
    public Joined join(ChatId chat, UserId by, UserId user) {
        return change("join " + chat, chat, ChatRows.Parts.CHAT_AND_MEMBERS, Optional.empty(),
                (connection, restored) -> new Applied<>(restored.join(by, user), List.of()));
    }

    /** An accept is a join at another point: the same lock, and the caller announces it as a join. */
    @Override
    public Joined accept(ChatId chat, UserId inviter, UserId invitee, long joinPoint) {
        return change("accept in " + chat, chat, ChatRows.Parts.CHAT_AND_MEMBERS, Optional.empty(),
                (connection, restored) -> new Applied<>(restored.accept(inviter, invitee, joinPoint), List.of()));
    }

    @Override
    public Left leave(ChatId chat, UserId user) {
        return change("leave " + chat, chat, ChatRows.Parts.CHAT_AND_MEMBERS, Optional.empty(),
                (connection, restored) -> new Applied<>(restored.leave(user), List.of()));
    }

    @Override
    public MessagePage read(UserId reader, ChatId chat, long after, int limit) {
        return transactions.readOnly("read " + chat, connection -> {
            Chat restored = Chat.restore(ChatRows.read(connection, chat, Optional.of(reader))
                    .orElseThrow(() -> new UnknownChatException(chat)), limits);
            return LogReads.reading(() -> restored.read(reader, after, limit, ChatMessages.log(connection, chat)));
        });
    }

    @Override
    public List<PendingChat> pending(UserId user, int perChatLimit) {
        return transactions.readOnly("pending of " + user, connection -> {
            List<PendingChat> pending = new ArrayList<>();
            for (UsersChats.Line line : UsersChats.pending(connection, user, perChatLimit)) {
                pending.add(line.restored(limits).pending(user, perChatLimit, (from, most) -> line.page()));
            }
            return List.copyOf(pending);
        });
    }

    @Override
    public List<ChatSummary> chatsOf(UserId user) {
        return transactions.readOnly("chats of " + user, connection -> UsersChats.summaries(connection, user, limits));
    }

    /** Every member is read: the summary lists them. */
    @Override
    public ChatSummary summaryOf(UserId member, ChatId chat) {
        return transactions.readOnly("summary of " + chat, connection -> Chat.restore(
                ChatRows.read(connection, chat, Optional.empty()).orElseThrow(() -> new UnknownChatException(chat)),
                limits).summaryFor(member));
    }

    @Override
    public List<ChatId> chatIdsOf(UserId user) {
        return transactions.autocommit("chat ids of " + user, connection -> UsersChats.ids(connection, user));
    }

    /** What an operation answers, and the messages it stored. */
    private record Applied<T>(T answer, List<Message> stored) {
    }

    @FunctionalInterface
    private interface Operation<T> {
        Applied<T> apply(Connection connection, Chat restored) throws SQLException;
    }

    /** Locks the chat's row, restores the aggregate, applies the operation, writes what changed. */
    private <T> T change(String action, ChatId chat, ChatRows.Parts parts, Optional<UserId> onlyMember,
                         Operation<T> operation) {
        return transactions.inTransaction(action, connection -> {
            ChatSnapshot before = ChatRows.lock(connection, chat, parts, onlyMember)
                    .orElseThrow(() -> new UnknownChatException(chat));
            Chat restored = Chat.restore(before, limits);
            Applied<T> applied = operation.apply(connection, restored);
            ChatRows.write(connection, before, restored.snapshot(), applied.stored());
            return applied.answer();
        });
    }

    private void announce(Connection connection, Sent sent) throws SQLException {
        for (LiveEvent event : LiveEvent.announcing(sent)) {
            announcer.announce(connection, Channel.ofChat(sent.chat()), event);
        }
    }
}
