package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.PresenceRegistry;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Sightings as rows of {@code presence}, one statement each. A touch is one upsert that keeps the
 * later of two sightings and answers the one it found, which the row keeps beside the new one
 * ({@code previous_millis}): PostgreSQL 15 cannot return a row's old values from an upsert.
 */
public final class PostgresPresenceRegistry implements PresenceRegistry {

    /** Users asked about in one statement, so a statement stays bounded however many are asked about. */
    static final int AMONG_PER_STATEMENT = 1_000;

    private static final String TOUCH = """
            insert into presence as p (user_id, seen_at_millis, previous_millis) values (?, ?, null)
            on conflict (user_id) do update
               set seen_at_millis = greatest(p.seen_at_millis, excluded.seen_at_millis),
                   previous_millis = p.seen_at_millis
            returning previous_millis""";

    private final Transactions transactions;

    public PostgresPresenceRegistry(PostgresStore store) {
        this.transactions = Objects.requireNonNull(store, "store").transactions();
    }

    @Override
    public Optional<Instant> touch(UserId user, Instant at) {
        return transactions.autocommit("a presence touch", connection -> {
            try (PreparedStatement touch = connection.prepareStatement(TOUCH)) {
                touch.setString(1, user.value());
                touch.setLong(2, at.toEpochMilli());
                try (ResultSet rows = touch.executeQuery()) {
                    rows.next();
                    long previous = rows.getLong(1);
                    return rows.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(previous));
                }
            }
        });
    }

    @Override
    public Set<UserId> seenSince(Instant since) {
        return transactions.autocommit("reading who is online", connection -> {
            try (PreparedStatement seen = connection.prepareStatement(
                    "select user_id from presence where seen_at_millis >= ?")) {
                seen.setLong(1, since.toEpochMilli());
                return users(seen, new HashSet<>());
            }
        });
    }

    @Override
    public long countSince(Instant since) {
        return transactions.autocommit("counting who is online", connection -> {
            try (PreparedStatement count = connection.prepareStatement(
                    "select count(*) from presence where seen_at_millis >= ?")) {
                count.setLong(1, since.toEpochMilli());
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    return rows.getLong(1);
                }
            }
        });
    }

    @Override
    public Set<UserId> seenSince(Instant since, Set<UserId> among) {
        if (among.isEmpty()) {
            return Set.of();
        }
        List<String> asked = among.stream().map(UserId::value).toList();
        return transactions.autocommit("reading who of some users is online", connection -> {
            Set<UserId> seen = new HashSet<>();
            try (PreparedStatement some = connection.prepareStatement(
                    "select user_id from presence where user_id = any(?) and seen_at_millis >= ?")) {
                for (int from = 0; from < asked.size(); from += AMONG_PER_STATEMENT) {
                    List<String> chunk = asked.subList(from, Math.min(asked.size(), from + AMONG_PER_STATEMENT));
                    Array users = connection.createArrayOf("text", chunk.toArray());
                    some.setArray(1, users);
                    some.setLong(2, since.toEpochMilli());
                    users(some, seen);
                    users.free();
                }
            }
            return seen;
        });
    }

    @Override
    public List<UserId> prune(Instant before) {
        return transactions.autocommit("pruning presence", connection -> {
            try (PreparedStatement prune = connection.prepareStatement(
                    "delete from presence where seen_at_millis < ? returning user_id")) {
                prune.setLong(1, before.toEpochMilli());
                return users(prune, new ArrayList<>());
            }
        });
    }

    private static <C extends Collection<UserId>> C users(PreparedStatement query, C into)
            throws SQLException {
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                into.add(UserId.of(rows.getString(1)));
            }
        }
        return into;
    }
}
