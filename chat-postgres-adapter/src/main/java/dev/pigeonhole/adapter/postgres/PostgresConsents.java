package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentSnapshot;
import dev.pigeonhole.domain.model.consent.Invitation;
import dev.pigeonhole.domain.port.out.Consents;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Each user's consent as one row of {@code consents}, with its version. Both methods are a single
 * autocommitted statement: a replace is an insert or an update whose condition is the version
 * the caller read, so the database's own row lock makes it a compare-and-swap, and the number of
 * rows it changed is the answer. A user nothing was kept for has no row, which reads as the empty
 * consent at version 0; the first replace inserts the row, and a second first replace finds it
 * there and changes nothing.
 *
 * <p>The rules are the domain's {@link dev.pigeonhole.domain.model.consent.Consent}: nothing here
 * looks inside the snapshot but to lay it out in columns.
 */
public final class PostgresConsents implements Consents {

    private static final String READ = """
            select version, add_policy, blocked, invitation_chats, invitation_inviters, invitation_join_points,
                   invitation_members, invitation_at_millis
              from consents where owner = ?""";

    private static final String FIRST = """
            insert into consents (owner, version, add_policy, blocked, invitation_chats, invitation_inviters,
                                  invitation_join_points, invitation_members, invitation_at_millis)
            values (?, 1, ?, ?, ?, ?, ?, ?, ?)
            on conflict (owner) do nothing""";

    private static final String NEXT = """
            update consents
               set version = version + 1, add_policy = ?, blocked = ?, invitation_chats = ?,
                   invitation_inviters = ?, invitation_join_points = ?, invitation_members = ?,
                   invitation_at_millis = ?
             where owner = ? and version = ?""";

    private final Transactions transactions;

    public PostgresConsents(PostgresStore store) {
        this.transactions = Objects.requireNonNull(store, "store").transactions();
    }

    @Override
    public Kept read(UserId user) {
        return transactions.autocommit("reading the consent of " + user, connection -> {
            try (PreparedStatement read = connection.prepareStatement(READ)) {
                read.setString(1, user.value());
                try (ResultSet row = read.executeQuery()) {
                    if (!row.next()) {
                        return new Kept(ConsentSnapshot.empty(user), 0);
                    }
                    return new Kept(snapshot(user, row), row.getLong(1));
                }
            }
        });
    }

    @Override
    public boolean replace(UserId user, long version, ConsentSnapshot next) {
        if (!next.owner().equals(user)) {
            throw new IllegalArgumentException("the consent of " + next.owner() + " kept as " + user + "'s");
        }
        return transactions.autocommit("replacing the consent of " + user, connection -> {
            if (version == 0) {
                try (PreparedStatement first = connection.prepareStatement(FIRST)) {
                    first.setString(1, user.value());
                    bind(connection, first, 2, next);
                    return first.executeUpdate() == 1;
                }
            }
            try (PreparedStatement update = connection.prepareStatement(NEXT)) {
                int after = bind(connection, update, 1, next);
                update.setString(after, user.value());
                update.setLong(after + 1, version);
                return update.executeUpdate() == 1;
            }
        });
    }

    /**
     * Sets the snapshot's seven columns from parameter {@code from} on, in the order both writes
     * name them.
     *
     * @return the next parameter's index
     */
    private static int bind(Connection connection, PreparedStatement statement, int from, ConsentSnapshot consent)
            throws SQLException {
        List<Invitation> invitations = consent.invitations();
        int at = from;
        if (consent.chosen().isPresent()) {
            statement.setString(at++, consent.chosen().get().name());
        } else {
            statement.setNull(at++, Types.VARCHAR);
        }
        statement.setArray(at++, connection.createArrayOf("text",
                consent.blocked().stream().map(UserId::value).toArray()));
        statement.setArray(at++, connection.createArrayOf("text",
                invitations.stream().map(invitation -> invitation.chat().value()).toArray()));
        statement.setArray(at++, connection.createArrayOf("text",
                invitations.stream().map(invitation -> invitation.inviter().value()).toArray()));
        statement.setArray(at++, connection.createArrayOf("bigint",
                invitations.stream().map(Invitation::joinPoint).toArray()));
        statement.setArray(at++, connection.createArrayOf("integer",
                invitations.stream().map(Invitation::members).toArray()));
        statement.setArray(at++, connection.createArrayOf("bigint",
                invitations.stream().map(invitation -> invitation.at().toEpochMilli()).toArray()));
        return at;
    }

    private static ConsentSnapshot snapshot(UserId owner, ResultSet row) throws SQLException {
        Optional<AddPolicy> chosen = Optional.ofNullable(row.getString(2)).map(AddPolicy::valueOf);
        List<UserId> blocked = Arrays.stream((String[]) row.getArray(3).getArray()).map(UserId::of).toList();
        String[] chats = (String[]) row.getArray(4).getArray();
        String[] inviters = (String[]) row.getArray(5).getArray();
        Long[] joinPoints = (Long[]) row.getArray(6).getArray();
        Integer[] members = (Integer[]) row.getArray(7).getArray();
        Long[] atMillis = (Long[]) row.getArray(8).getArray();
        List<Invitation> invitations = new ArrayList<>(chats.length);
        for (int i = 0; i < chats.length; i++) {
            invitations.add(new Invitation(ChatId.of(chats[i]), UserId.of(inviters[i]), joinPoints[i], members[i],
                    Instant.ofEpochMilli(atMillis[i])));
        }
        return new ConsentSnapshot(owner, chosen, blocked, invitations);
    }
}
