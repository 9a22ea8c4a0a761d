package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.port.out.Mailboxes;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Mailboxes as a row per owner ({@code mailboxes}: the last id handed out and how far the owner
 * acknowledged) and a row per message. Acknowledging always removes a prefix of the ids, so a
 * mailbox's depth is the difference of the two numbers, and checking its capacity counts no rows.
 *
 * <p>A delivery is one transaction: an upsert that takes the next id only if the mailbox has
 * room, which locks the owner's row so deliveries to one owner take their ids one after the
 * other; the message; and its announcement on the owner's channel, which PostgreSQL sends when
 * the transaction commits, so deliveries go out in id order and a refused one announces nothing.
 */
public final class PostgresMailboxes implements Mailboxes {

    private static final String NEXT_ID = """
            insert into mailboxes as m (owner, last_id, acknowledged) values (?, 1, 0)
            on conflict (owner) do update set last_id = m.last_id + 1
             where m.last_id - m.acknowledged < ?
            returning last_id, last_id - acknowledged""";

    private static final String STORE = """
            insert into mailbox_messages (owner, id, sent_at_millis, sender, body) values (?, ?, ?, ?, ?)""";

    private static final String READ = """
            select id, sent_at_millis, sender, body from mailbox_messages
             where owner = ? order by id limit ?""";

    /** Locks the owner's row, so an acknowledgement and a delivery never cross. */
    private static final String LAST_ID = "select last_id from mailboxes where owner = ? for update";

    private static final String REMOVE = "delete from mailbox_messages where owner = ? and id <= ?";

    private static final String ACKNOWLEDGED = """
            update mailboxes set acknowledged = greatest(acknowledged, ?) where owner = ?""";

    private final Transactions transactions;
    private final Notices notices;
    private final int capacity;

    public PostgresMailboxes(PostgresStore store, Limits limits) {
        Objects.requireNonNull(store, "store");
        this.transactions = store.transactions();
        this.notices = store.notices();
        this.capacity = limits.mailboxCapacity();
    }

    @Override
    public Delivered deliver(UserId recipient, UserId sender, String body, Instant at) {
        return transactions.inTransaction("a delivery to " + recipient, connection -> {
            long id;
            int depth;
            try (PreparedStatement next = connection.prepareStatement(NEXT_ID)) {
                next.setString(1, recipient.value());
                next.setInt(2, capacity);
                try (ResultSet taken = next.executeQuery()) {
                    if (!taken.next()) {
                        throw new MailboxFullException(recipient, capacity);
                    }
                    id = taken.getLong(1);
                    depth = taken.getInt(2);
                }
            }
            DirectMessage message = new DirectMessage(id, Instant.ofEpochMilli(at.toEpochMilli()), sender, body);
            try (PreparedStatement store = connection.prepareStatement(STORE)) {
                store.setString(1, recipient.value());
                store.setLong(2, id);
                store.setLong(3, message.sentAt().toEpochMilli());
                store.setString(4, sender.value());
                store.setString(5, body);
                store.executeUpdate();
            }
            Delivered delivered = new Delivered(recipient, message, depth);
            notices.announce(connection, Channel.ofUser(recipient), LiveEvent.announcing(delivered));
            return delivered;
        });
    }

    @Override
    public List<DirectMessage> read(UserId owner, int max) {
        return transactions.autocommit("reading the mailbox of " + owner, connection -> {
            try (PreparedStatement read = connection.prepareStatement(READ)) {
                read.setString(1, owner.value());
                read.setInt(2, max);
                List<DirectMessage> messages = new ArrayList<>();
                try (ResultSet rows = read.executeQuery()) {
                    while (rows.next()) {
                        messages.add(new DirectMessage(rows.getLong(1), Instant.ofEpochMilli(rows.getLong(2)),
                                UserId.of(rows.getString(3)), rows.getString(4)));
                    }
                }
                return messages;
            }
        });
    }

    @Override
    public void acknowledge(UserId owner, long upTo) {
        transactions.inTransaction("acknowledging the mailbox of " + owner, connection -> {
            long lastId;
            try (PreparedStatement last = connection.prepareStatement(LAST_ID)) {
                last.setString(1, owner.value());
                try (ResultSet row = last.executeQuery()) {
                    lastId = row.next() ? row.getLong(1) : 0;
                }
            }
            if (upTo > lastId) {
                throw DirectMessage.beyondLastId(owner, upTo, lastId);
            }
            if (upTo < 1) {
                return null;
            }
            try (PreparedStatement remove = connection.prepareStatement(REMOVE)) {
                remove.setString(1, owner.value());
                remove.setLong(2, upTo);
                remove.executeUpdate();
            }
            try (PreparedStatement acknowledged = connection.prepareStatement(ACKNOWLEDGED)) {
                acknowledged.setLong(1, upTo);
                acknowledged.setString(2, owner.value());
                acknowledged.executeUpdate();
            }
            return null;
        });
    }
}
