package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.adapter.postgres.fixture.PostgresServer;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Mailboxes;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import dev.pigeonhole.domain.port.out.Quotas;
import dev.pigeonhole.tck.StoreFixture;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every port on one PostgreSQL store in a schema of its own, which isolates it from every other
 * fixture: its tables live there, and its notification channels and listening sessions are named
 * after it, so dropping "its" live connections drops no one else's.
 */
public final class PostgresStoreFixture implements StoreFixture {

    private final PostgresServer server;
    private final PostgresSettings settings;
    private final PostgresStore store;
    private final PostgresMailboxes mailboxes;
    private final PostgresPresenceRegistry presence;
    private final PostgresChatLock lock;
    private final PostgresChannels channels;
    private final PostgresQuotas quotas;
    private final PostgresChats chats;
    private PostgresStore secondStore;

    public PostgresStoreFixture(PostgresServer server, Limits limits) {
        this.server = server;
        this.settings = server.newSettings();
        this.store = new PostgresStore(settings);
        this.mailboxes = new PostgresMailboxes(store, limits);
        this.presence = new PostgresPresenceRegistry(store);
        this.lock = new PostgresChatLock(store);
        this.channels = new PostgresChannels(store);
        this.quotas = new PostgresQuotas(store);
        this.chats = new PostgresChats(store, limits);
    }

    public PostgresStore store() {
        return store;
    }

    public PostgresServer server() {
        return server;
    }

    @Override
    public Chats chats() {
        return chats;
    }

    /** The rows that still name the chat, table by table: a deleted chat must leave none. */
    @Override
    public Set<String> tracesOf(ChatId chat) {
        Set<String> left = new TreeSet<>();
        try (Connection connection = server.connect(settings.schema())) {
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

    @Override
    public Mailboxes mailboxes() {
        return mailboxes;
    }

    @Override
    public PresenceRegistry presence() {
        return presence;
    }

    @Override
    public ChatLock lock() {
        return lock;
    }

    @Override
    public Channels channels() {
        return channels;
    }

    @Override
    public Quotas quotas() {
        return quotas;
    }

    /** Through a pool of its own on the same schema, as a second server's, which does not migrate again. */
    @Override
    public synchronized Quotas quotasOfAnotherInstance() {
        if (secondStore == null) {
            secondStore = new PostgresStore(settings.withMigrate(false));
        }
        return new PostgresQuotas(secondStore);
    }

    /** Ends this store's listening sessions on the server, as a network failure or a restart would. */
    @Override
    public void dropLiveConnections() {
        if (server.terminateSessions(PostgresChannels.applicationName(settings)) == 0) {
            throw new IllegalStateException("no listening session of " + settings.schema() + " to drop");
        }
    }

    @Override
    public synchronized void close() {
        store.close();
        if (secondStore != null) {
            secondStore.close();
        }
    }
}
