package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Mailboxes;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import dev.pigeonhole.domain.port.out.Quotas;

import java.util.Set;

/**
 * One store under test: every driven port of one backend, sharing state as they do in
 * production (a send through {@link #chats()} is announced through {@link #channels()}).
 *
 * <p>An adapter's tests implement this once and hand a fresh one to each contract. A fixture must
 * be isolated from every other fixture alive at the same time (a new in-memory store, or a
 * random key prefix on a shared Redis): contracts never flush anything.
 */
public interface StoreFixture extends AutoCloseable {

    Chats chats();

    Mailboxes mailboxes();

    PresenceRegistry presence();

    ChatLock lock();

    Channels channels();

    /** The users' buckets for the rarer writes. */
    Quotas quotas();

    /**
     * The same buckets as a second server sharing this store sees them: through its own
     * connection on Redis; the very same object in memory, where a second server has no store to
     * share. Closed with the fixture.
     */
    Quotas quotasOfAnotherInstance();

    /**
     * Cuts every upstream pub/sub connection of {@link #channels()} the way a network failure or a
     * store restart would; the adapter is expected to reconnect by itself.
     */
    void dropLiveConnections();

    /**
     * Whatever the store still holds for a chat, described for an assertion message: keys in
     * Redis, for example. A deleted chat must leave nothing. Stores that cannot look inside
     * themselves return an empty set and are checked through the ports alone.
     */
    default Set<String> tracesOf(ChatId chat) {
        return Set.of();
    }

    @Override
    void close();
}
