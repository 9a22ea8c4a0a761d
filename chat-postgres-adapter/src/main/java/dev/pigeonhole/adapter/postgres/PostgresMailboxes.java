package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.model.mailbox.Mailbox;
import dev.pigeonhole.domain.model.mailbox.MailboxSnapshot;
import dev.pigeonhole.domain.model.mailbox.Sender;
import dev.pigeonhole.domain.port.out.Mailboxes;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The domain's {@link Mailbox} aggregate in the classic repository shape, as {@link PostgresChats}
 * applies a chat: each operation reads the owner's row ({@code mailboxes}: the last id handed out
 * and how far the owner acknowledged, a {@link MailboxSnapshot}), lets the aggregate decide, and
 * writes back what it changed, with a row per message beside it ({@code mailbox_messages}). Which
 * of the messages held came from strangers is a flag on each message's row, so the aggregate's
 * {@link MailboxSnapshot#fromStrangers()} is read from the rows a delivery finds, and what it
 * decides is written on the row it adds; acknowledging deletes the rows, and their flags with them.
 *
 * <p>A delivery and an acknowledgement lock the owner's row, so one owner's operations run one
 * after the other while different owners never wait for each other. A delivery's announcement on
 * the owner's channel goes out when its transaction commits, so deliveries go out in id order and
 * a refused one announces nothing. A read locks nothing: it sees one snapshot of both tables.
 */
public final class PostgresMailboxes implements Mailboxes {

    /** Makes sure the owner has a row to lock; a refused delivery rolls it back with the rest. */
    private static final String CREATE = """
            insert into mailboxes (owner, last_id, acknowledged) values (?, 0, 0) on conflict (owner) do nothing""";

    private static final String LOCK = "select last_id, acknowledged from mailboxes where owner = ? for update";

    private static final String LOOK = "select last_id, acknowledged from mailboxes where owner = ?";

    /**
     * A statement of its own, after the lock: one that waited for the lock would see only the
     * locked row as its holder left it, and the messages as they were before the wait.
     */
    private static final String FROM_STRANGERS = """
            select id from mailbox_messages where owner = ? and from_stranger order by id""";

    private static final String SAVE = "update mailboxes set last_id = ?, acknowledged = ? where owner = ?";

    private static final String STORE = """
            insert into mailbox_messages (owner, id, sent_at_millis, sender, body, from_stranger) values (?, ?, ?, ?, ?, ?)""";

    private static final String AFTER = """
            select id, sent_at_millis, sender, body from mailbox_messages
             where owner = ? and id > ? order by id limit ?""";

    private static final String REMOVE = "delete from mailbox_messages where owner = ? and id <= ?";

    private final Transactions transactions;
    private final Notices notices;
    private final Limits limits;

    public PostgresMailboxes(PostgresStore store, Limits limits) {
        Objects.requireNonNull(store, "store");
        this.transactions = store.transactions();
        this.notices = store.notices();
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public Delivered deliver(UserId recipient, UserId sender, String body, Instant at, Sender from) {
        return transactions.inTransaction("a delivery to " + recipient, connection -> {
            try (PreparedStatement create = connection.prepareStatement(CREATE)) {
                create.setString(1, recipient.value());
                create.executeUpdate();
            }
            Mailbox mailbox = kept(connection, recipient, LOCK, true);
            Delivered delivered = mailbox.deliver(sender, body, at, from);
            save(connection, mailbox);
            DirectMessage message = delivered.message();
            boolean fromStranger = mailbox.snapshot().fromStrangers().contains(message.id());
            try (PreparedStatement store = connection.prepareStatement(STORE)) {
                store.setString(1, recipient.value());
                store.setLong(2, message.id());
                store.setLong(3, message.sentAt().toEpochMilli());
                store.setString(4, sender.value());
                store.setString(5, body);
                store.setBoolean(6, fromStranger);
                store.executeUpdate();
            }
            notices.announce(connection, Channel.ofUser(recipient), LiveEvent.announcing(delivered));
            return delivered;
        });
    }

    @Override
    public List<DirectMessage> read(UserId owner, int max) {
        return transactions.readOnly("reading the mailbox of " + owner, connection -> {
            Mailbox mailbox = kept(connection, owner, LOOK, false);
            return LogReads.reading(() -> mailbox.read(max, (after, limit) ->
                    LogReads.carrying(() -> messagesAfter(connection, owner, after, limit))));
        });
    }

    @Override
    public void acknowledge(UserId owner, long upTo) {
        transactions.inTransaction("acknowledging the mailbox of " + owner, connection -> {
            Mailbox mailbox = kept(connection, owner, LOCK, false);
            long before = mailbox.acknowledged();
            long acknowledged = mailbox.acknowledge(upTo);
            if (acknowledged == before) {
                return null;
            }
            try (PreparedStatement remove = connection.prepareStatement(REMOVE)) {
                remove.setString(1, owner.value());
                remove.setLong(2, acknowledged);
                remove.executeUpdate();
            }
            save(connection, mailbox);
            return null;
        });
    }

    /**
     * The owner's mailbox as its rows keep it; one never delivered to has no row and is empty.
     * Only a delivery asks the aggregate about strangers, so only a delivery reads which messages
     * are theirs: reading and acknowledging restore it without them, and the rows an
     * acknowledgement deletes take their flags along.
     */
    private Mailbox kept(Connection connection, UserId owner, String query, boolean withStrangers)
            throws SQLException {
        long lastId;
        long acknowledged;
        try (PreparedStatement look = connection.prepareStatement(query)) {
            look.setString(1, owner.value());
            try (ResultSet row = look.executeQuery()) {
                if (!row.next()) {
                    return new Mailbox(owner, limits);
                }
                lastId = row.getLong(1);
                acknowledged = row.getLong(2);
            }
        }
        List<Long> fromStrangers = withStrangers ? fromStrangers(connection, owner) : List.of();
        return Mailbox.restore(new MailboxSnapshot(owner, lastId, acknowledged, fromStrangers), limits);
    }

    private static List<Long> fromStrangers(Connection connection, UserId owner) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(FROM_STRANGERS)) {
            read.setString(1, owner.value());
            List<Long> ids = new ArrayList<>();
            try (ResultSet rows = read.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
            return ids;
        }
    }

    private static void save(Connection connection, Mailbox mailbox) throws SQLException {
        MailboxSnapshot changed = mailbox.snapshot();
        try (PreparedStatement save = connection.prepareStatement(SAVE)) {
            save.setLong(1, changed.lastId());
            save.setLong(2, changed.acknowledged());
            save.setString(3, changed.owner().value());
            save.executeUpdate();
        }
    }

    private static List<DirectMessage> messagesAfter(Connection connection, UserId owner, long after, int limit)
            throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(AFTER)) {
            read.setString(1, owner.value());
            read.setLong(2, after);
            read.setInt(3, limit);
            List<DirectMessage> messages = new ArrayList<>();
            try (ResultSet rows = read.executeQuery()) {
                while (rows.next()) {
                    messages.add(new DirectMessage(rows.getLong(1), Instant.ofEpochMilli(rows.getLong(2)),
                            UserId.of(rows.getString(3)), rows.getString(4)));
                }
            }
            return messages;
        }
    }
}
