package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Announcing a live event with {@code pg_notify}, on whatever connection the caller holds: inside
 * a port's own transaction, the notification goes out when that transaction commits and never if
 * it rolls back, so a message is announced exactly when it is stored, in id order. Each event is
 * notified twice in one statement, on its channel and on the channel pattern subscriptions
 * listen to ({@link ChannelNames#everything()}).
 *
 * <p>A notification's payload must stay under 8 000 bytes. An event that fits travels whole; a
 * message that does not (a long body, or one JSON escapes heavily) travels as where it is stored,
 * and the listener reads it from there ({@link #resolve}).
 */
final class Notices {

    /** PostgreSQL refuses a payload of 8 000 bytes or more. */
    static final int MAX_PAYLOAD_BYTES = 7_999;

    private static final String NOTIFY = "select pg_notify(?, ?), pg_notify(?, ?)";

    private final ChannelNames names;

    Notices(ChannelNames names) {
        this.names = Objects.requireNonNull(names, "names");
    }

    ChannelNames names() {
        return names;
    }

    /**
     * Notifies {@code event} on {@code channel} through {@code connection}: at once with autocommit
     * on, else when the caller's transaction commits.
     */
    void announce(Connection connection, Channel channel, LiveEvent event) throws SQLException {
        String payload = payload(channel, event);
        try (PreparedStatement notify = connection.prepareStatement(NOTIFY)) {
            notify.setString(1, names.of(channel));
            notify.setString(2, payload);
            notify.setString(3, names.everything());
            notify.setString(4, payload);
            notify.execute();
        }
    }

    static String payload(Channel channel, LiveEvent event) {
        String carried = NoticePayload.carried(channel, event);
        if (carried.getBytes(StandardCharsets.UTF_8).length <= MAX_PAYLOAD_BYTES) {
            return carried;
        }
        return NoticePayload.stored(channel, event);
    }

    /**
     * The event a notification stands for, reading the message it names when it did not travel
     * whole; empty when that message is gone (trimmed, or acknowledged) before it could be read.
     */
    static Optional<LiveEvent> resolve(Connection connection, NoticePayload.Payload payload) throws SQLException {
        return switch (payload) {
            case NoticePayload.Carried carried -> Optional.of(carried.event());
            case NoticePayload.Stored stored when stored.chat() != null -> chatMessage(connection, stored)
                    .map(message -> new LiveEvent.MessagePosted(stored.chat(), message));
            case NoticePayload.Stored stored -> directMessage(connection, stored)
                    .map(message -> new LiveEvent.DirectMessageDelivered(stored.owner(), message));
        };
    }

    private static Optional<Message> chatMessage(Connection connection, NoticePayload.Stored stored)
            throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(
                "select sent_at_millis, sender, body from chat_messages where chat_id = ? and id = ?")) {
            read.setString(1, stored.chat().value());
            read.setLong(2, stored.id());
            try (ResultSet row = read.executeQuery()) {
                return row.next()
                        ? Optional.of(new Message(stored.id(), Instant.ofEpochMilli(row.getLong(1)),
                        UserId.of(row.getString(2)), row.getString(3)))
                        : Optional.empty();
            }
        }
    }

    private static Optional<DirectMessage> directMessage(Connection connection, NoticePayload.Stored stored)
            throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(
                "select sent_at_millis, sender, body from mailbox_messages where owner = ? and id = ?")) {
            read.setString(1, stored.owner().value());
            read.setLong(2, stored.id());
            try (ResultSet row = read.executeQuery()) {
                return row.next()
                        ? Optional.of(new DirectMessage(stored.id(), Instant.ofEpochMilli(row.getLong(1)),
                        UserId.of(row.getString(2)), row.getString(3)))
                        : Optional.empty();
            }
        }
    }
}
