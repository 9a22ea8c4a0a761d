package dev.pigeonhole.adapter.redis;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The connections of one {@link PubSubConnection} that were lost and are not back yet. When the
 * last of them is back, its listener hears {@link PubSubListener#resubscribed()}, once.
 *
 * <p>A drop (a restart, a network cut) usually takes every connection of a subscription at once,
 * and on a cluster there is one per node. Told as each came back, the listener could pull what it
 * missed while another connection was still resubscribing, and miss what arrives there before it
 * is back. Told once, after all of them, nothing it pulls afterwards can fall in that gap.
 *
 * <p>Every driver uses it: each says which of its connections was lost and when one is back; this
 * decides when to announce (GLIDE's driver counts its whole subscription client as one).
 * Thread-safe. The announcement runs on the thread whose call brought the last connection back,
 * outside any lock held here.
 *
 * @param <C> what the driver calls one connection; compared by identity
 */
public final class LostConnections<C> {

    private final Runnable announce;
    private final Set<C> lost = Collections.newSetFromMap(new IdentityHashMap<>());

    /** @param announce tells the listener; the driver's own delivery, so it never overlaps a message */
    public LostConnections(Runnable announce) {
        this.announce = Objects.requireNonNull(announce, "announce");
    }

    /** The connection dropped with subscriptions on it: the listener is owed an announcement. */
    public void lost(C connection) {
        synchronized (lost) {
            lost.add(Objects.requireNonNull(connection, "connection"));
        }
    }

    /**
     * The connection is back with everything on it subscribed again, or holds nothing any more.
     * Announces if it was the last one lost; a connection that was not lost changes nothing.
     */
    public void back(C connection) {
        boolean allBack;
        synchronized (lost) {
            allBack = lost.remove(connection) && lost.isEmpty();
        }
        if (allBack) {
            announce.run();
        }
    }

    /** Gives up on the lost connections that will never come back; announces if none is left. */
    public void forgetIf(Predicate<? super C> gone) {
        boolean allBack;
        synchronized (lost) {
            allBack = lost.removeIf(gone) && lost.isEmpty();
        }
        if (allBack) {
            announce.run();
        }
    }

    /** True while the connection is lost and not back. */
    public boolean isLost(C connection) {
        synchronized (lost) {
            return lost.contains(connection);
        }
    }
}
