package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.StoreFixture;

import java.time.InstantSource;
import java.util.List;

/** Every port in memory, for the contract suite: a fresh store per test, so isolation comes free. */
final class InMemoryStoreFixture {

    private InMemoryStoreFixture() {
    }

    static StoreFixture open(Limits limits) {
        InMemoryChannels channels = new InMemoryChannels();
        // The lock and quota contracts wait for real leases to expire and real tokens to come back, as
        // they must on Redis, so real time here.
        InMemoryQuotas quotas = new InMemoryQuotas(InstantSource.system());
        return new StoreFixture(new InMemoryChats(limits, channels), new InMemoryMailboxes(limits, channels),
                new InMemoryPresenceRegistry(), new InMemoryChatLock(InstantSource.system()), channels, quotas,
                new InMemoryConsents(),
                // A second server in memory would have a store of its own; the same buckets stand in for it.
                () -> quotas,
                channels::disconnectAll,
                StoreFixture.NO_TRACES,
                // Connections are closed by the tests that open them, and the rest is heap.
                List.of());
    }
}
