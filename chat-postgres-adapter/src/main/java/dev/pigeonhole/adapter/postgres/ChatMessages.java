package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.MessageLog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A chat's messages as the aggregate asks for them ({@link MessageLog}): one statement per page.
 * The aggregate decides where a reader may start; the table only hands over what it holds.
 */
final class ChatMessages {

    private ChatMessages() {
    }

    /** The log of one chat on the caller's connection; read it inside {@link LogReads#reading}. */
    static MessageLog log(Connection connection, ChatId chat) {
        return (after, limit) -> LogReads.carrying(() -> after(connection, chat, after, limit));
    }

    static List<Message> after(Connection connection, ChatId chat, long after, int limit) throws SQLException {
        try (PreparedStatement page = connection.prepareStatement("select id, sent_at_millis, sender, body"
                + " from chat_messages where chat_id = ? and id > ? order by id limit ?")) {
            page.setString(1, chat.value());
            page.setLong(2, after);
            page.setInt(3, limit);
            try (ResultSet rows = page.executeQuery()) {
                List<Message> messages = new ArrayList<>();
                while (rows.next()) {
                    messages.add(message(rows, 1));
                }
                return messages;
            }
        }
    }

    /** The message in the four columns from {@code column} on: id, time, sender, body. */
    static Message message(ResultSet row, int column) throws SQLException {
        return new Message(row.getLong(column), Instant.ofEpochMilli(row.getLong(column + 1)),
                UserId.of(row.getString(column + 2)), row.getString(column + 3));
    }

}
