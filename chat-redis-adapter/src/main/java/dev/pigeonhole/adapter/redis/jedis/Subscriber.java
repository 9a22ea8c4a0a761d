package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;

/**
 * One dedicated subscription connection to one node, kept alive by its own thread, which runs
 * Jedis's blocking subscriber loop and makes every listener call. What is subscribed, confirmed
 * and owed is kept by a {@link SubscriptionLedger}; this class does the I/O around it.
 *
 * <p>The thread opens a {@link Session} with the ledger's anchor, and once Redis confirms it,
 * writes everything else desired. From then on, changes are written from the caller's thread,
 * under {@link #lock} so that commands never interleave on the socket. A change returns once
 * Redis confirmed it; if the connection is down, the caller waits for the thread to reconnect,
 * which subscribes everything desired.
 *
 * <p>Longer than this project's files usually are, on purpose: a caller's wait and the loop's
 * confirmations meet on one lock over one session, and the protocol of that lock reads best in
 * one place. What needs no lock already lives apart: the bookkeeping in
 * {@link SubscriptionLedger}, Jedis's callbacks in {@link Session}.
 */
final class Subscriber {

    private static final Logger LOG = LoggerFactory.getLogger(Subscriber.class);
    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 2_000;

    /** Where the subscriber connects, and what happens around it; calls come from its thread. */
    interface Host {
        HostAndPort node();

        /** A connection attempt failed or a session ended while something was still desired. */
        void disrupted(Subscriber subscriber);

        /** A live session was lost with subscriptions on it; {@link #recovered} follows once all are back. */
        void lost(Subscriber subscriber);

        /** Nothing is owed any more: everything lost is subscribed again, or nothing is left to subscribe. */
        void recovered(Subscriber subscriber);

        void message(String channel, String payload);

        void patternMessage(String pattern, String channel, String payload);
    }

    private final boolean sharded;
    private final Host host;
    private final JedisClientConfig config;
    private final JedisFailures failures;
    private final long commandTimeoutMillis;
    private final long connectTimeoutMillis;
    private final Thread thread;

    private final Object lock = new Object();
    private final SubscriptionLedger ledger = new SubscriptionLedger();
    private Session session;
    private boolean closed;
    private HostAndPort node;
    private RuntimeException lastFailure;

    Subscriber(String threadName, boolean sharded, Host host, JedisClientConfig config, JedisFailures failures,
            long commandTimeoutMillis, long connectTimeoutMillis) {
        this.sharded = sharded;
        this.host = host;
        this.config = config;
        this.failures = failures;
        this.commandTimeoutMillis = commandTimeoutMillis;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.thread = new Thread(this::loop, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /** Subscribes or unsubscribes and returns once Redis confirmed it. */
    void change(SubscriptionKey key, boolean subscribe) {
        try {
            settle(key, subscribe);
        } finally {
            // An unsubscribe, or a subscribe that failed and was taken back, may empty this one.
            boolean forgiven;
            synchronized (lock) {
                forgiven = ledger.forgiveIfIdle();
            }
            if (forgiven) {
                host.recovered(this);
            }
        }
    }

    private void settle(SubscriptionKey key, boolean subscribe) {
        Session killed = null;
        StoreUnavailableException failure;
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the pub/sub connection is closed");
            }
            boolean changed = ledger.want(key, subscribe);
            boolean live = ledger.isLive();
            long budget = commandTimeoutMillis + (live ? 0 : connectTimeoutMillis);
            if (live) {
                write(session, List.of(ledger.send(key, subscribe)));
            } else {
                lock.notifyAll();
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(budget);
            while (!ledger.settled(key, subscribe)) {
                if (closed) {
                    throw new IllegalStateException("the pub/sub connection was closed during " + key.command(subscribe));
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                waitOnLock(TimeUnit.NANOSECONDS.toMillis(left) + 1);
            }
            if (ledger.settled(key, subscribe)) {
                return;
            }
            // A failed unsubscribe still takes effect when the connection comes back, since
            // nothing re-subscribes what is not desired.
            if (subscribe && changed) {
                ledger.giveUp(key);
            }
            String action = key.command(subscribe) + " on " + (node != null ? node : host.node());
            if (ledger.isLive()) {
                // The connection no longer answers in time: start over on a fresh one, which
                // also drops whatever this command may still do on the old one.
                killed = session;
                failure = failures.noAnswer(action, Trouble.TIMED_OUT);
            } else if (lastFailure != null) {
                failure = failures.unavailable(action + " within " + budget + " ms", lastFailure);
            } else {
                failure = failures.noAnswer(action + " within " + budget + " ms", Trouble.UNREACHABLE);
            }
        }
        if (killed != null) {
            killed.kill();
        }
        throw failure;
    }

    /** Takes over subscriptions another node held before the slot moved; no waiting. */
    void adopt(Set<SubscriptionKey> keys) {
        synchronized (lock) {
            if (!closed) {
                write(session, ledger.adopt(keys));
                lock.notifyAll();
            }
        }
    }

    /**
     * Gives up subscriptions that moved to another node; only called between sessions. Returns
     * those it still held. May end what this one owes, so the caller looks at {@link #owes()}.
     */
    Set<SubscriptionKey> release(Set<SubscriptionKey> keys) {
        synchronized (lock) {
            Set<SubscriptionKey> released = ledger.release(keys);
            lock.notifyAll();
            return released;
        }
    }

    /** True while a lost session's subscriptions are not all back. */
    boolean owes() {
        synchronized (lock) {
            return ledger.owes();
        }
    }

    boolean holds(SubscriptionKey key) {
        return ledger.wants(key);
    }

    Set<SubscriptionKey> desired() {
        synchronized (lock) {
            return ledger.desired();
        }
    }

    /** Stops the loop; {@link #join()} waits for the thread. Idempotent. */
    void close() {
        Session current;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            current = session;
            lock.notifyAll();
        }
        if (current != null) {
            current.kill();
        }
    }

    void join() {
        if (Thread.currentThread() == thread) {
            return;
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        long backoff = 0;
        while (awaitSomethingDesired() && (backoff == 0 || pause(backoff))) {
            HostAndPort target = host.node();
            Connection connection;
            try {
                connection = new Connection(target, config);
            } catch (RuntimeException e) {
                synchronized (lock) {
                    node = target;
                    lastFailure = e;
                    lock.notifyAll();
                }
                LOG.debug("pub/sub connection to {} failed: {}", target, e.toString());
                host.disrupted(this);
                backoff = nextBackoff(backoff);
                continue;
            }
            Session current;
            synchronized (lock) {
                if (closed || !ledger.wantsAnything()) {
                    closeQuietly(connection);
                    continue;
                }
                current = Session.open(connection, ledger.open(), sharded, new Events());
                session = current;
                node = target;
            }
            RuntimeException failure = null;
            try {
                current.run();
            } catch (RuntimeException e) {
                failure = e;
            } finally {
                closeQuietly(connection);
            }
            // Jedis's loop also ends without an error once the last subscription is gone, which
            // is no loss unless Redis itself dropped subscriptions still wanted.
            boolean lost = failure != null || current.dropped || !current.drained;
            boolean wasLive;
            boolean stillWanted;
            boolean owes;
            synchronized (lock) {
                wasLive = ledger.isLive();
                stillWanted = ledger.wantsAnything();
                owes = ledger.ended(lost);
                session = null;
                if (closed) {
                    return;
                }
                if (failure != null) {
                    lastFailure = failure;
                }
                lock.notifyAll();
            }
            if (owes) {
                host.lost(this);
            }
            if (lost && stillWanted) {
                LOG.info("pub/sub connection to {} lost ({}); reconnecting", target,
                        current.dropped ? "Redis dropped a sharded channel, its slot moved"
                                : failure != null ? failures.reason(failure) : "Redis ended subscriptions still wanted");
                host.disrupted(this);
                backoff = wasLive ? FIRST_BACKOFF_MILLIS : nextBackoff(backoff);
            } else {
                backoff = 0;
            }
        }
    }

    /** Waits until something is desired; false once closed. */
    private boolean awaitSomethingDesired() {
        synchronized (lock) {
            while (!closed && !ledger.wantsAnything()) {
                waitOnLock(0);
            }
            return !closed;
        }
    }

    /** The loop's thread hears from Jedis here. */
    private final class Events implements Session.Events {

        @Override
        public void confirmed(Session from, SubscriptionKey key, boolean subscribed, int remaining) {
            SubscriptionLedger.Reaction reaction;
            synchronized (lock) {
                if (from != session) {
                    return;
                }
                from.drained = remaining == 0;
                reaction = ledger.confirmed(key, subscribed);
                if (reaction.becameLive()) {
                    lastFailure = null;
                }
                from.dropped |= reaction.dropped();
                write(from, reaction.send());
                lock.notifyAll();
            }
            if (reaction.dropped()) {
                from.kill();
            } else if (reaction.recovered()) {
                host.recovered(Subscriber.this);
            }
        }

        @Override
        public void message(SubscriptionKey.Kind kind, String channel, String payload) {
            if (channel != null && !channel.isEmpty() && ledger.wants(new SubscriptionKey(kind, channel))) {
                host.message(channel, payload);
            }
        }

        @Override
        public void patternMessage(String pattern, String channel, String payload) {
            if (channel != null && !channel.isEmpty() && ledger.wants(SubscriptionKey.pattern(pattern))) {
                host.patternMessage(pattern, channel, payload);
            }
        }
    }

    /** Under {@link #lock}: the single place that writes to the connection after the anchor. */
    private void write(Session target, List<SubscriptionLedger.Command> commands) {
        for (SubscriptionLedger.Command command : commands) {
            try {
                target.send(command.key(), command.subscribe());
            } catch (RuntimeException e) {
                lastFailure = e;
                // The loop notices the broken connection through its blocked read once it is closed.
                target.kill();
            }
        }
    }

    /** Waits out a backoff unless closed first; false once closed. */
    private boolean pause(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (lock) {
            while (!closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return true;
                }
                waitOnLock(TimeUnit.NANOSECONDS.toMillis(left) + 1);
            }
            return false;
        }
    }

    private void waitOnLock(long millis) {
        try {
            lock.wait(millis);
        } catch (InterruptedException e) {
            // Closing is signalled through the flag, not by interruption; keep the status for the caller.
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Redis pub/sub", e);
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (RuntimeException e) {
            LOG.debug("closing a pub/sub connection failed: {}", e.toString());
        }
    }

    private static long nextBackoff(long current) {
        return current == 0 ? FIRST_BACKOFF_MILLIS : Math.min(MAX_BACKOFF_MILLIS, current * 2);
    }
}
