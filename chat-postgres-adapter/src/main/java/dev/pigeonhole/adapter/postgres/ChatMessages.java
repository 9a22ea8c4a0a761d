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
import java.util.function.Supplier;

/**
 * A chat's messages as the aggregate asks for them ({@link MessageLog}): one statement per page.
 * The aggregate decides where a reader may start; the table only hands over what it holds.
 */
final class ChatMessages {

    private ChatMessages() {
    }

    /** The log of one chat on the caller's connection. Its failures surface from {@link #reading}. */
    static MessageLog log(Connection connection, ChatId chat) {
        return (after, limit) -> {
            try {
                return after(connection, chat, after, limit);
            } catch (SQLException e) {
                throw new Failed(e);
            }
        };
    }

    /** Runs a read through a {@link #log}, giving back the SQL failure the log could not throw itself. */
    static <T> T reading(Supplier<T> read) throws SQLException {
        try {
            return read.get();
        } catch (Failed failed) {
            throw failed.cause;
        }
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

    /** An SQL failure carried out of a {@link MessageLog}, whose method may not throw it. */
    private static final class Failed extends RuntimeException {

        private final SQLException cause;

        Failed(SQLException cause) {
            super(cause.getMessage(), cause, false, false);
            this.cause = cause;
        }
    }
}
