package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.OnFirstUse;
import dev.pigeonhole.testsupport.postgres.PostgresServer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import static dev.pigeonhole.adapter.postgres.PostgresTestSettings.newSettings;

/**
 * Every port on one PostgreSQL store in a schema of its own, for the contract suite and the tests
 * that look closer. The schema isolates it from every other fixture: its tables live there, and its
 * notification channels and listening sessions are named after it, so dropping "its" live
 * connections drops no one else's.
 */
final class PostgresStoreFixture {

    private PostgresStoreFixture() {
    }

    /** In a fresh schema of {@code server}. */
    static StoreFixture open(PostgresServer server, Limits limits) {
        return open(server, newSettings(server), limits);
    }

    /** As {@code settings} say, whose schema no other fixture uses. */
    static StoreFixture open(PostgresServer server, PostgresSettings settings, Limits limits) {
        PostgresStore store = new PostgresStore(settings);
        // A pool of its own on the same schema, as a second server's, which does not migrate again.
        OnFirstUse<PostgresStore> secondStore = new OnFirstUse<>(() -> new PostgresStore(settings.withMigrate(false)));
        PostgresMailboxes mailboxes = new PostgresMailboxes(store, limits);
        PostgresPresenceRegistry presence = new PostgresPresenceRegistry(store);
        PostgresChatLock lock = new PostgresChatLock(store);
        PostgresChannels channels = new PostgresChannels(store);
        PostgresQuotas quotas = new PostgresQuotas(store);
        return new StoreFixture(new PostgresChats(store, limits), mailboxes, presence, lock, channels, quotas,
                new PostgresConsents(store), () -> new PostgresQuotas(secondStore.get()),
                () -> dropListeningSessions(server, settings),
                chat -> rowsLeft(server, settings, chat),
                List.of(store, secondStore));
    }

    /** Ends the store's listening sessions on the server, as a network failure or a restart would. */
    private static void dropListeningSessions(PostgresServer server, PostgresSettings settings) {
        if (PlainJdbc.terminateSessions(server, PostgresChannels.applicationName(settings)) == 0) {
            throw new IllegalStateException("no listening session of " + settings.schema() + " to drop");
        }
    }

    /** The rows that still name the chat, table by table: a deleted chat must leave none. */
    private static Set<String> rowsLeft(PostgresServer server, PostgresSettings settings, ChatId chat) {
        Set<String> left = new TreeSet<>();
        try (Connection connection = PlainJdbc.connect(server, settings.schema())) {
            for (String table : List.of("chats", "chat_members", "chat_messages", "keyed_sends", "send_buckets")) {
                String column = table.equals("chats") ? "id" : "chat_id";
                try (PreparedStatement rows = connection.prepareStatement(
                        "select count(*) from " + table + " where " + column + " = ?")) {
                    rows.setString(1, chat.value());
                    try (ResultSet count = rows.executeQuery()) {
                        count.next();
                        if (count.getLong(1) > 0) {
                            left.add(table + ": " + count.getLong(1) + " rows");
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot look for what is left of " + chat, e);
        }
        return left;
    }
}
