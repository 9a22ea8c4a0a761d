package dev.pigeonhole.adapter.redis.jedis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bookkeeping of one {@link Subscriber}, with no socket in it: what the callers want
 * subscribed (desired), what Redis has confirmed on the current session, which commands are still
 * in flight, and whether a lost session left the listener owed a {@code resubscribed()}.
 *
 * <p>A session starts with one desired subscription, the anchor, because Jedis's subscriber loop
 * cannot start empty. Its confirmation makes the session live, and then everything else desired is
 * sent. Every method that calls for commands returns them, already counted in flight; the
 * subscriber writes them and reports each confirmation back.
 *
 * <p>Not thread-safe: the subscriber calls it under its lock. Only {@link #wants} may be called
 * without, to filter deliveries.
 */
final class SubscriptionLedger {

    /** A command to write on the live session. */
    record Command(SubscriptionKey key, boolean subscribe) {
    }

    /**
     * What a confirmation calls for.
     *
     * @param send       commands to write now
     * @param becameLive it confirmed the anchor: the session is live from now on
     * @param dropped    Redis ended a subscription nobody asked to end (a sharded channel whose slot
     *                   moved): the session must start over
     * @param recovered  everything desired is confirmed again after a loss: the debt is paid
     */
    record Reaction(List<Command> send, boolean becameLive, boolean dropped, boolean recovered) {
    }

    private final Set<SubscriptionKey> desired = ConcurrentHashMap.newKeySet();
    private final Set<SubscriptionKey> confirmed = new HashSet<>();
    private final Map<SubscriptionKey, Integer> inFlight = new HashMap<>();
    /** The current session's first subscription; null between sessions. */
    private SubscriptionKey anchor;
    /** The current session confirmed its anchor, so commands may be written on it. */
    private boolean live;
    /**
     * A live session was lost with subscriptions on it: the listener is owed a resubscribed()
     * once all are back. Never true while nothing is desired (see {@link #forgiveIfIdle()}).
     */
    private boolean owed;

    /** Whether deliveries on this subscription are still wanted; safe without the lock. */
    boolean wants(SubscriptionKey key) {
        return desired.contains(key);
    }

    boolean wantsAnything() {
        return !desired.isEmpty();
    }

    Set<SubscriptionKey> desired() {
        return Set.copyOf(desired);
    }

    boolean isLive() {
        return live;
    }

    boolean owes() {
        return owed;
    }

    /** A caller asks for a change; true if it changed what is desired. */
    boolean want(SubscriptionKey key, boolean subscribe) {
        return subscribe ? desired.add(key) : desired.remove(key);
    }

    /** A subscribe that could not be confirmed in time leaves nothing behind. */
    void giveUp(SubscriptionKey key) {
        desired.remove(key);
    }

    /** The command for a caller's change on the live session, counted in flight. */
    Command send(SubscriptionKey key, boolean subscribe) {
        inFlight.merge(key, 1, Integer::sum);
        return new Command(key, subscribe);
    }

    /**
     * A caller's change is done: nothing about its key is in flight and Redis holds what it asked
     * for, or another caller reversed the change meanwhile (then this one happened first).
     */
    boolean settled(SubscriptionKey key, boolean subscribe) {
        if (inFlight.getOrDefault(key, 0) > 0) {
            return false;
        }
        return subscribe
                ? confirmed.contains(key) || !desired.contains(key)
                : !confirmed.contains(key) || desired.contains(key);
    }

    /** A new session starts; returns its anchor, counted in flight. Only while something is desired. */
    SubscriptionKey open() {
        anchor = desired.iterator().next();
        live = false;
        inFlight.merge(anchor, 1, Integer::sum);
        return anchor;
    }

    /** Redis confirmed a subscribe or an unsubscribe on the current session. */
    Reaction confirmed(SubscriptionKey key, boolean subscribed) {
        int pending = inFlight.getOrDefault(key, 0);
        if (pending > 1) {
            inFlight.put(key, pending - 1);
        } else {
            inFlight.remove(key);
        }
        if (subscribed) {
            confirmed.add(key);
        } else {
            confirmed.remove(key);
        }
        List<Command> send = new ArrayList<>();
        boolean becameLive = !live;
        boolean dropped = false;
        if (becameLive) {
            live = true;
            for (SubscriptionKey other : desired) {
                if (!other.equals(anchor)) {
                    send.add(send(other, true));
                }
            }
            if (!desired.contains(anchor)) {
                send.add(send(anchor, false));
            }
        } else if (pending == 0) {
            // Nobody sent this: Redis acted on its own.
            if (!subscribed && desired.contains(key)) {
                dropped = true;
            } else if (subscribed && !desired.contains(key)) {
                send.add(send(key, false));
            }
        }
        boolean recovered = owed && everythingConfirmed();
        if (recovered) {
            owed = false;
        }
        return new Reaction(List.copyOf(send), becameLive, dropped, recovered);
    }

    /**
     * The current session ended. True if it was live and {@code lost} subscriptions still
     * desired, which leaves the listener owed a resubscribed().
     */
    boolean ended(boolean lost) {
        boolean owe = lost && live && !desired.isEmpty();
        anchor = null;
        live = false;
        confirmed.clear();
        inFlight.clear();
        owed |= owe;
        return owe;
    }

    /**
     * Takes over subscriptions another connection held before their slot moved. Whatever was
     * published to them meanwhile is lost, so the listener is owed a resubscribed() from here too.
     * Returns the subscribes to write if the session is live; otherwise the next one sends them.
     */
    List<Command> adopt(Set<SubscriptionKey> keys) {
        owed = true;
        List<Command> send = new ArrayList<>();
        for (SubscriptionKey key : keys) {
            if (desired.add(key) && live) {
                send.add(send(key, true));
            }
        }
        return List.copyOf(send);
    }

    /**
     * Gives up subscriptions that moved to another connection; returns those still held, since a
     * caller's unsubscribe may have come first. May pay the debt (see {@link #forgiveIfIdle()}).
     */
    Set<SubscriptionKey> release(Set<SubscriptionKey> keys) {
        Set<SubscriptionKey> released = new HashSet<>();
        for (SubscriptionKey key : keys) {
            if (desired.remove(key)) {
                released.add(key);
            }
        }
        forgiveIfIdle();
        return released;
    }

    /**
     * Nothing left to resubscribe owes no announcement. The debt is cleared the moment the last
     * subscription leaves, not when the session next looks: the connection that took the
     * subscriptions over may finish first, and must not find this one still owing. True if a debt
     * was cleared.
     */
    boolean forgiveIfIdle() {
        if (owed && desired.isEmpty()) {
            owed = false;
            return true;
        }
        return false;
    }

    private boolean everythingConfirmed() {
        for (SubscriptionKey key : desired) {
            if (!confirmed.contains(key) || inFlight.containsKey(key)) {
                return false;
            }
        }
        return true;
    }
}
