package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Mailboxes;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import dev.pigeonhole.domain.port.out.Quotas;
import dev.pigeonhole.tck.StoreFixture;

import java.time.InstantSource;

/** A fresh in-memory store per contract test: isolation comes free. */
final class InMemoryStoreFixture implements StoreFixture {

    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryChats chats;
    private final InMemoryMailboxes mailboxes;
    private final InMemoryPresenceRegistry presence = new InMemoryPresenceRegistry();
    // The lock contract waits for real leases to expire, as it must on Redis, so real time here.
    private final InMemoryChatLock lock = new InMemoryChatLock(InstantSource.system());
    // The quota contract waits for real tokens to come back, as it must on Redis.
    private final InMemoryQuotas quotas = new InMemoryQuotas(InstantSource.system());

    InMemoryStoreFixture(Limits limits) {
        this.chats = new InMemoryChats(limits, channels);
        this.mailboxes = new InMemoryMailboxes(limits, channels);
    }

    @Override
    public Chats chats() {
        return chats;
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

    /** The same buckets: in memory, a second server would have a store of its own. */
    @Override
    public Quotas quotasOfAnotherInstance() {
        return quotas;
    }

    @Override
    public void dropLiveConnections() {
        channels.disconnectAll();
    }

    @Override
    public void close() {
        // Nothing to release: connections are closed by the tests that open them, and the rest is heap.
    }
}
