package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSnapshot;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.RememberedSend;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One chat's rows, read into a {@link ChatSnapshot} and written back from one: the classic
 * repository, and the only class that knows the chat tables. A write compares the snapshot the
 * aggregate was restored from with the one it ends in, and writes only what changed, a batch per
 * table: a send changes its chat's row, the sender's cursor and one message, and so writes those.
 *
 * <p>Every method runs on the caller's connection, inside the caller's transaction.
 */
final class ChatRows {

    /** What of the chat an operation reads besides its row and members. */
    enum Parts { CHAT_AND_MEMBERS, WITH_KEYED_SENDS, WITH_SEND_BUCKETS, WITH_BOTH }

    private ChatRows() {
    }

    /**
     * The chat, its row locked until the transaction ends, with every member or only
     * {@code onlyMember}; empty if there is no such chat.
     */
    static Optional<ChatSnapshot> lock(Connection connection, ChatId chat, Parts parts, Optional<UserId> onlyMember)
            throws SQLException {
        return read(connection, chat, parts, onlyMember, " for update");
    }

    /** The same without a lock, for a reader inside a snapshot of its own. */
    static Optional<ChatSnapshot> read(Connection connection, ChatId chat, Optional<UserId> onlyMember)
            throws SQLException {
        return read(connection, chat, Parts.CHAT_AND_MEMBERS, onlyMember, "");
    }

    private static Optional<ChatSnapshot> read(Connection connection, ChatId chat, Parts parts,
                                               Optional<UserId> onlyMember, String locking) throws SQLException {
        // The row first, on its own: a statement that waited for the lock sees the row as the
        // holder left it, but anything else it joined as it was before the wait (READ COMMITTED
        // re-checks only the locked row). So the members are read by a statement of their own,
        // after the lock, which sees what the last holder committed.
        Access access;
        long lastId;
        long firstAvailableId;
        try (PreparedStatement row = connection.prepareStatement(
                "select access, last_id, first_available_id from chats where id = ?" + locking)) {
            row.setString(1, chat.value());
            try (ResultSet found = row.executeQuery()) {
                if (!found.next()) {
                    return Optional.empty();
                }
                access = Access.valueOf(found.getString(1));
                lastId = found.getLong(2);
                firstAvailableId = found.getLong(3);
            }
        }
        Map<UserId, ChatSnapshot.Member> members = new HashMap<>();
        String memberSql = "select user_id, cursor_id, join_point from chat_members where chat_id = ?"
                + (onlyMember.isPresent() ? " and user_id = ?" : "");
        try (PreparedStatement rows = connection.prepareStatement(memberSql)) {
            rows.setString(1, chat.value());
            if (onlyMember.isPresent()) {
                rows.setString(2, onlyMember.get().value());
            }
            try (ResultSet found = rows.executeQuery()) {
                while (found.next()) {
                    members.put(UserId.of(found.getString(1)),
                            new ChatSnapshot.Member(found.getLong(2), found.getLong(3)));
                }
            }
        }
        Map<String, RememberedSend> keyed = new HashMap<>();
        if (parts == Parts.WITH_KEYED_SENDS || parts == Parts.WITH_BOTH) {
            try (PreparedStatement rows = connection.prepareStatement("select scoped_key, message_id,"
                    + " sent_at_millis, body_digest from keyed_sends where chat_id = ?")) {
                rows.setString(1, chat.value());
                try (ResultSet found = rows.executeQuery()) {
                    while (found.next()) {
                        keyed.put(found.getString(1), new RememberedSend(found.getLong(2),
                                Instant.ofEpochMilli(found.getLong(3)), found.getString(4)));
                    }
                }
            }
        }
        Map<UserId, Long> buckets = new HashMap<>();
        if (parts == Parts.WITH_SEND_BUCKETS || parts == Parts.WITH_BOTH) {
            try (PreparedStatement rows = connection.prepareStatement(
                    "select sender, full_at_millis from send_buckets where chat_id = ?")) {
                rows.setString(1, chat.value());
                try (ResultSet found = rows.executeQuery()) {
                    while (found.next()) {
                        buckets.put(UserId.of(found.getString(1)), found.getLong(2));
                    }
                }
            }
        }
        return Optional.of(new ChatSnapshot(chat, access, lastId, firstAvailableId, false, members, keyed, buckets));
    }

    /**
     * Several chats with every member, their rows locked until the transaction ends, in two
     * statements whatever their number; a chat not there has no entry. The rows are locked in the
     * order of their ids, so two batches lock in the same order and cannot deadlock each other.
     */
    static Map<ChatId, ChatSnapshot> lockAll(Connection connection, Collection<ChatId> chats) throws SQLException {
        Object[] ids = chats.stream().map(ChatId::value).toArray();
        record Row(Access access, long lastId, long firstAvailableId) {
        }
        Map<ChatId, Row> rows = new HashMap<>();
        try (PreparedStatement locking = connection.prepareStatement("select id, access, last_id, first_available_id"
                + " from chats where id = any (?) order by id for update")) {
            locking.setArray(1, connection.createArrayOf("text", ids));
            try (ResultSet found = locking.executeQuery()) {
                while (found.next()) {
                    rows.put(ChatId.of(found.getString(1)),
                            new Row(Access.valueOf(found.getString(2)), found.getLong(3), found.getLong(4)));
                }
            }
        }
        // After the lock, in a statement of its own: it sees what the last holder committed.
        Map<ChatId, Map<UserId, ChatSnapshot.Member>> members = new HashMap<>();
        try (PreparedStatement reading = connection.prepareStatement("select chat_id, user_id, cursor_id, join_point"
                + " from chat_members where chat_id = any (?)")) {
            reading.setArray(1, connection.createArrayOf("text", ids));
            try (ResultSet found = reading.executeQuery()) {
                while (found.next()) {
                    members.computeIfAbsent(ChatId.of(found.getString(1)), chat -> new HashMap<>())
                            .put(UserId.of(found.getString(2)), new ChatSnapshot.Member(found.getLong(3), found.getLong(4)));
                }
            }
        }
        Map<ChatId, ChatSnapshot> locked = new HashMap<>();
        rows.forEach((chat, row) -> locked.put(chat, new ChatSnapshot(chat, row.access(), row.lastId(),
                row.firstAvailableId(), false, members.getOrDefault(chat, Map.of()), Map.of(), Map.of())));
        return locked;
    }

    /**
     * What acknowledging changed in several chats, each from {@code before} to {@code after}:
     * cursors, and what is held. One batch per table, whatever the number of chats. Anything else
     * changed is a bug of the caller's, refused before a statement runs.
     */
    static void writeAcknowledged(Connection connection, Map<ChatId, ChatSnapshot> before,
                                  Map<ChatId, ChatSnapshot> after) throws SQLException {
        try (PreparedStatement held = connection.prepareStatement(
                     "update chats set first_available_id = ? where id = ?");
             PreparedStatement cursors = connection.prepareStatement(
                     "update chat_members set cursor_id = ? where chat_id = ? and user_id = ?");
             PreparedStatement dropped = connection.prepareStatement(
                     "delete from chat_messages where chat_id = ? and id < ?")) {
            boolean anyHeld = false;
            boolean anyCursor = false;
            for (var entry : after.entrySet()) {
                ChatSnapshot was = before.get(entry.getKey());
                ChatSnapshot now = entry.getValue();
                if (now.deleted() || now.lastId() != was.lastId() || now.access() != was.access()
                        || !now.members().keySet().equals(was.members().keySet())) {
                    throw new IllegalStateException("an acknowledgement changed more than cursors in " + now.id());
                }
                String chat = now.id().value();
                if (now.firstAvailableId() != was.firstAvailableId()) {
                    held.setLong(1, now.firstAvailableId());
                    held.setString(2, chat);
                    held.addBatch();
                    dropped.setString(1, chat);
                    dropped.setLong(2, now.firstAvailableId());
                    dropped.addBatch();
                    anyHeld = true;
                }
                for (var member : now.members().entrySet()) {
                    if (member.getValue().cursor() != was.members().get(member.getKey()).cursor()) {
                        cursors.setLong(1, member.getValue().cursor());
                        cursors.setString(2, chat);
                        cursors.setString(3, member.getKey().value());
                        cursors.addBatch();
                        anyCursor = true;
                    }
                }
            }
            if (anyCursor) {
                cursors.executeBatch();
            }
            if (anyHeld) {
                held.executeBatch();
                dropped.executeBatch();
            }
        }
    }

    /** A new chat's row; false if the id is taken. */
    static boolean insert(Connection connection, ChatSnapshot chat) throws SQLException {
        try (PreparedStatement row = connection.prepareStatement("insert into chats (id, access, last_id,"
                + " first_available_id) values (?, ?, ?, ?) on conflict (id) do nothing")) {
            row.setString(1, chat.id().value());
            row.setString(2, chat.access().name());
            row.setLong(3, chat.lastId());
            row.setLong(4, chat.firstAvailableId());
            return row.executeUpdate() == 1;
        }
    }

    /**
     * Writes what changed from {@code before} to {@code after}, with the messages the operation
     * stored; the chat's row is in place already (locked, or just inserted).
     */
    static void write(Connection connection, ChatSnapshot before, ChatSnapshot after, List<Message> stored)
            throws SQLException {
        String chat = after.id().value();
        if (after.deleted()) {
            try (PreparedStatement gone = connection.prepareStatement("delete from chats where id = ?")) {
                gone.setString(1, chat);
                gone.executeUpdate();
            }
            return;
        }
        if (after.lastId() != before.lastId() || after.firstAvailableId() != before.firstAvailableId()
                || after.access() != before.access()) {
            try (PreparedStatement row = connection.prepareStatement(
                    "update chats set access = ?, last_id = ?, first_available_id = ? where id = ?")) {
                row.setString(1, after.access().name());
                row.setLong(2, after.lastId());
                row.setLong(3, after.firstAvailableId());
                row.setString(4, chat);
                row.executeUpdate();
            }
        }
        writeMembers(connection, chat, before.members(), after.members());
        writeKeyedSends(connection, chat, before.keyedSends(), after.keyedSends());
        writeBuckets(connection, chat, before.sendBuckets(), after.sendBuckets());
        if (!stored.isEmpty()) {
            try (PreparedStatement rows = connection.prepareStatement("insert into chat_messages (chat_id, id,"
                    + " sent_at_millis, sender, body) values (?, ?, ?, ?, ?)")) {
                for (Message message : stored) {
                    rows.setString(1, chat);
                    rows.setLong(2, message.id());
                    rows.setLong(3, message.sentAt().toEpochMilli());
                    rows.setString(4, message.sender().value());
                    rows.setString(5, message.body());
                    rows.addBatch();
                }
                rows.executeBatch();
            }
        }
        if (after.firstAvailableId() > before.firstAvailableId()) {
            try (PreparedStatement dropped = connection.prepareStatement(
                    "delete from chat_messages where chat_id = ? and id < ?")) {
                dropped.setString(1, chat);
                dropped.setLong(2, after.firstAvailableId());
                dropped.executeUpdate();
            }
        }
    }

    private static void writeMembers(Connection connection, String chat, Map<UserId, ChatSnapshot.Member> before,
                                     Map<UserId, ChatSnapshot.Member> after) throws SQLException {
        Changes<UserId, ChatSnapshot.Member> changes = Changes.between(before, after);
        if (!changes.put().isEmpty()) {
            try (PreparedStatement rows = connection.prepareStatement("insert into chat_members (chat_id, user_id,"
                    + " cursor_id, join_point) values (?, ?, ?, ?) on conflict (chat_id, user_id) do update"
                    + " set cursor_id = excluded.cursor_id, join_point = excluded.join_point")) {
                for (var member : changes.put().entrySet()) {
                    rows.setString(1, chat);
                    rows.setString(2, member.getKey().value());
                    rows.setLong(3, member.getValue().cursor());
                    rows.setLong(4, member.getValue().joinPoint());
                    rows.addBatch();
                }
                rows.executeBatch();
            }
        }
        deleteAll(connection, "delete from chat_members where chat_id = ? and user_id = any (?)", chat,
                changes.removed().stream().map(UserId::value).toList());
    }

    private static void writeKeyedSends(Connection connection, String chat, Map<String, RememberedSend> before,
                                        Map<String, RememberedSend> after) throws SQLException {
        Changes<String, RememberedSend> changes = Changes.between(before, after);
        if (!changes.put().isEmpty()) {
            try (PreparedStatement rows = connection.prepareStatement("insert into keyed_sends (chat_id, scoped_key,"
                    + " message_id, sent_at_millis, body_digest, closes_at_millis) values (?, ?, ?, ?, ?, ?)"
                    + " on conflict (chat_id, scoped_key) do update set message_id = excluded.message_id,"
                    + " sent_at_millis = excluded.sent_at_millis, body_digest = excluded.body_digest,"
                    + " closes_at_millis = excluded.closes_at_millis")) {
                for (var kept : changes.put().entrySet()) {
                    RememberedSend send = kept.getValue();
                    rows.setString(1, chat);
                    rows.setString(2, kept.getKey());
                    rows.setLong(3, send.id());
                    rows.setLong(4, send.sentAt().toEpochMilli());
                    rows.setString(5, send.bodyDigest());
                    rows.setLong(6, send.sentAt().plus(IdempotencyKey.WINDOW).toEpochMilli());
                    rows.addBatch();
                }
                rows.executeBatch();
            }
        }
        deleteAll(connection, "delete from keyed_sends where chat_id = ? and scoped_key = any (?)", chat,
                changes.removed());
    }

    private static void writeBuckets(Connection connection, String chat, Map<UserId, Long> before,
                                     Map<UserId, Long> after) throws SQLException {
        Changes<UserId, Long> changes = Changes.between(before, after);
        if (!changes.put().isEmpty()) {
            try (PreparedStatement rows = connection.prepareStatement("insert into send_buckets (chat_id, sender,"
                    + " full_at_millis) values (?, ?, ?) on conflict (chat_id, sender) do update"
                    + " set full_at_millis = excluded.full_at_millis")) {
                for (var bucket : changes.put().entrySet()) {
                    rows.setString(1, chat);
                    rows.setString(2, bucket.getKey().value());
                    rows.setLong(3, bucket.getValue());
                    rows.addBatch();
                }
                rows.executeBatch();
            }
        }
        deleteAll(connection, "delete from send_buckets where chat_id = ? and sender = any (?)", chat,
                changes.removed().stream().map(UserId::value).toList());
    }

    private static void deleteAll(Connection connection, String sql, String chat, List<String> keys)
            throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        try (PreparedStatement rows = connection.prepareStatement(sql)) {
            rows.setString(1, chat);
            rows.setArray(2, connection.createArrayOf("text", keys.toArray()));
            rows.executeUpdate();
        }
    }

    /** What to write of one map: entries added or changed, and keys gone. */
    private record Changes<K, V>(Map<K, V> put, List<K> removed) {

        static <K, V> Changes<K, V> between(Map<K, V> before, Map<K, V> after) {
            Map<K, V> put = new HashMap<>();
            after.forEach((key, value) -> {
                if (!Objects.equals(before.get(key), value)) {
                    put.put(key, value);
                }
            });
            List<K> removed = before.keySet().stream().filter(key -> !after.containsKey(key)).toList();
            return new Changes<>(put, removed);
        }
    }
}
