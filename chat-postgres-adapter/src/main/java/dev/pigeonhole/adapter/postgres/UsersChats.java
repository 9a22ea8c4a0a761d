package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.Chat;
import dev.pigeonhole.domain.model.chat.ChatSnapshot;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every chat of one user at once, in two statements whatever their number: the user's chats with
 * its own row in each, then one more statement for what each needs beside (the messages above the
 * user's cursor, or every member). Run inside one read-only snapshot, so the two agree. The ids of
 * a user's chats alone take one statement.
 */
final class UsersChats {

    /** One chat as its member {@code user} sees it, with the page of messages above its cursor. */
    record Line(ChatSnapshot chat, List<Message> page) {

        Chat restored(Limits limits) {
            return Chat.restore(chat, limits);
        }
    }

    private UsersChats() {
    }

    /** The user's chats in {@link ChatId} order, each with up to {@code perChatLimit} messages above its cursor. */
    static List<Line> pending(Connection connection, UserId user, int perChatLimit) throws SQLException {
        TreeMap<ChatId, ChatSnapshot> chats = chatsOf(connection, user);
        Map<ChatId, List<Message>> pages = new HashMap<>();
        try (PreparedStatement above = connection.prepareStatement("select m.chat_id, x.id, x.sent_at_millis,"
                + " x.sender, x.body from chat_members m cross join lateral (select id, sent_at_millis, sender, body"
                + " from chat_messages where chat_id = m.chat_id and id > m.cursor_id order by id limit ?) x"
                + " where m.user_id = ? order by m.chat_id, x.id")) {
            above.setInt(1, perChatLimit);
            above.setString(2, user.value());
            try (ResultSet rows = above.executeQuery()) {
                while (rows.next()) {
                    pages.computeIfAbsent(ChatId.of(rows.getString(1)), chat -> new ArrayList<>())
                            .add(ChatMessages.message(rows, 2));
                }
            }
        }
        List<Line> lines = new ArrayList<>(chats.size());
        chats.forEach((chat, snapshot) -> lines.add(new Line(snapshot, pages.getOrDefault(chat, List.of()))));
        return lines;
    }

    /** {@link Chat#summaryFor} of each of the user's chats, in {@link ChatId} order. */
    static List<ChatSummary> summaries(Connection connection, UserId user, Limits limits) throws SQLException {
        TreeMap<ChatId, ChatSnapshot> chats = chatsOf(connection, user);
        Map<ChatId, Map<UserId, ChatSnapshot.Member>> members = new HashMap<>();
        try (PreparedStatement everyone = connection.prepareStatement("select chat_id, user_id, cursor_id,"
                + " join_point from chat_members where chat_id = any (?)")) {
            everyone.setArray(1, connection.createArrayOf("text",
                    chats.keySet().stream().map(ChatId::value).toArray()));
            try (ResultSet rows = everyone.executeQuery()) {
                while (rows.next()) {
                    members.computeIfAbsent(ChatId.of(rows.getString(1)), chat -> new HashMap<>())
                            .put(UserId.of(rows.getString(2)), new ChatSnapshot.Member(rows.getLong(3), rows.getLong(4)));
                }
            }
        }
        List<ChatSummary> summaries = new ArrayList<>(chats.size());
        chats.forEach((chat, own) -> {
            ChatSnapshot whole = new ChatSnapshot(chat, own.access(), own.lastId(), own.firstAvailableId(), false,
                    members.getOrDefault(chat, own.members()), Map.of(), Map.of());
            summaries.add(Chat.restore(whole, limits).summaryFor(user));
        });
        return summaries;
    }

    /**
     * The ids of the user's chats from its membership rows alone, sorted here rather than by the
     * database, whose collation need not order text as {@link ChatId} does.
     */
    static List<ChatId> ids(Connection connection, UserId user) throws SQLException {
        List<ChatId> ids = new ArrayList<>();
        try (PreparedStatement mine = connection.prepareStatement(
                "select chat_id from chat_members where user_id = ?")) {
            mine.setString(1, user.value());
            try (ResultSet rows = mine.executeQuery()) {
                while (rows.next()) {
                    ids.add(ChatId.of(rows.getString(1)));
                }
            }
        }
        ids.sort(null);
        return List.copyOf(ids);
    }

    /** The user's chats, each with the user as its only member, sorted as {@link ChatId}s sort. */
    private static TreeMap<ChatId, ChatSnapshot> chatsOf(Connection connection, UserId user) throws SQLException {
        TreeMap<ChatId, ChatSnapshot> chats = new TreeMap<>();
        try (PreparedStatement mine = connection.prepareStatement("select c.id, c.access, c.last_id,"
                + " c.first_available_id, m.cursor_id, m.join_point from chat_members m join chats c"
                + " on c.id = m.chat_id where m.user_id = ?")) {
            mine.setString(1, user.value());
            try (ResultSet rows = mine.executeQuery()) {
                while (rows.next()) {
                    ChatId chat = ChatId.of(rows.getString(1));
                    chats.put(chat, new ChatSnapshot(chat, Access.valueOf(rows.getString(2)), rows.getLong(3),
                            rows.getLong(4), false, Map.of(user, new ChatSnapshot.Member(rows.getLong(5),
                            rows.getLong(6))), Map.of(), Map.of()));
                }
            }
        }
        return chats;
    }
}
