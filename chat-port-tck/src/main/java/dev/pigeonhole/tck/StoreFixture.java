package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Consents;
import dev.pigeonhole.domain.port.out.Mailboxes;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import dev.pigeonhole.domain.port.out.Quotas;

import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One store under test: every driven port of one backend, sharing state as they do in
 * production (a send through {@link #chats()} is announced through {@link #channels()}), and the
 * few things a contract asks of the store itself.
 *
 * <p>A store's tests build one for each contract that asks ({@link ContractSuite#newStore}). It
 * must be isolated from every other fixture alive at the same time (a new in-memory store, a
 * random key prefix on a shared Redis, a schema of its own on PostgreSQL): contracts never flush
 * anything.
 *
 * @param quotas          the users' buckets for the rarer writes
 * @param consents        each user's consent: add policy, blocks, invitations
 * @param anotherInstance the same buckets as a second server sharing this store sees them: through
 *                        a connection of its own on Redis; the very same object in memory, where a
 *                        second server has no store to share. Closed with the fixture
 * @param liveDrop        cuts every upstream pub/sub connection of {@link #channels()} the way a
 *                        network failure or a store restart would; the adapter is expected to
 *                        reconnect by itself
 * @param traces          whatever the store still holds of a chat, described for an assertion
 *                        message: keys in Redis, rows in PostgreSQL. A deleted chat must leave
 *                        nothing. A store that cannot look inside itself answers nothing
 *                        ({@link #NO_TRACES}) and is checked through the ports alone
 * @param resources       what the store holds open (connections, pools), closed with the fixture, in
 *                        this order
 */
public record StoreFixture(Chats chats, Mailboxes mailboxes, PresenceRegistry presence, ChatLock lock,
                           Channels channels, Quotas quotas, Consents consents, Supplier<Quotas> anotherInstance,
                           Runnable liveDrop,
                           Function<ChatId, Set<String>> traces, List<AutoCloseable> resources)
        implements AutoCloseable {

    /** For a store that cannot look inside itself. */
    public static final Function<ChatId, Set<String>> NO_TRACES = chat -> Set.of();

    public StoreFixture {
        resources = List.copyOf(resources);
    }

    /** The buckets as a second server sharing this store sees them ({@link #anotherInstance()}). */
    public Quotas quotasOfAnotherInstance() {
        return anotherInstance.get();
    }

    /** Cuts the live connections, as a network failure would ({@link #liveDrop()}). */
    public void dropLiveConnections() {
        liveDrop.run();
    }

    /** What the store still holds of {@code chat} ({@link #traces()}). */
    public Set<String> tracesOf(ChatId chat) {
        return traces.apply(chat);
    }

    /** Closes every resource, even when one fails to close. */
    @Override
    public void close() {
        OpenStores.closeEach(resources);
    }
}
