package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.adapter.postgres.fixture.PostgresServer;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Mailboxes;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import dev.pigeonhole.domain.port.out.Quotas;
import dev.pigeonhole.tck.StoreFixture;
import org.junit.jupiter.api.Assumptions;

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
    }

    public PostgresStore store() {
        return store;
    }

    public PostgresServer server() {
        return server;
    }

    /**
     * Not yet: a contract that needs chats is skipped, and says why, until {@code PostgresChats}
     * takes this method's place.
     */
    @Override
    public Chats chats() {
        return Assumptions.abort("PostgresChats comes in its own change");
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
