package dev.pigeonhole.adapter.redis;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The subscription connections one driver holds open, so that closing the driver closes each of
 * them, and one that opens while the driver closes is closed at once instead of left running
 * with nobody to end it. Every driver keeps its connections here. Thread-safe.
 *
 * @param <C> the driver's own kind of connection
 */
public final class OpenSubscriptions<C extends PubSubConnection> {

    private final Set<C> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * Opens a connection with {@code opener}, which is handed what the connection must call when
     * it closes, and keeps it until then. Once {@link #closeAll()} has run, nothing opens: the
     * caller gets {@code refusal}'s exception, also when the driver closed while this one opened.
     */
    public C open(Function<Consumer<C>, C> opener, Supplier<RuntimeException> refusal) {
        if (closed) {
            throw refusal.get();
        }
        C connection = opener.apply(open::remove);
        open.add(connection);
        if (closed) {
            // closeAll() ran while this one was opening and could not see it
            connection.close();
            throw refusal.get();
        }
        return connection;
    }

    /** Closes every connection still open, and refuses any more. Idempotent. */
    public void closeAll() {
        closed = true;
        for (C connection : List.copyOf(open)) {
            connection.close();
        }
    }
}
