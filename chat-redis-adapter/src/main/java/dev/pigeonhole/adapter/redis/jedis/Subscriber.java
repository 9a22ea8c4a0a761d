package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.JedisShardedPubSub;

/**
 * One dedicated subscription connection to one node, kept alive by its own thread, which runs
 * Jedis's blocking subscriber loop and makes every listener call.
 *
 * <p>Jedis's loop starts with a first subscription and ends when the last one is gone, so the
 * connection exists only while something is subscribed: the thread opens it with one desired
 * subscription (the anchor), and the first reply, which confirms the anchor, is the moment the
 * loop runs and everything else desired is sent. From then on, changes are sent from the caller's
 * thread, under {@link #lock} so that commands never interleave on the socket.
 *
 * <p>A change returns once Redis confirmed it: each command sent counts as in flight for its
 * subscription until the matching confirmation arrives, and the caller waits until its
 * subscription has nothing in flight and is in the state it asked for. If the connection is
 * down the caller waits for the thread to reconnect, which subscribes everything desired.
 */
final class Subscriber {

    private static final Logger LOG = LoggerFactory.getLogger(Subscriber.class);
    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 2_000;

    enum Kind {
        CHANNEL("SUBSCRIBE", "UNSUBSCRIBE"),
        PATTERN("PSUBSCRIBE", "PUNSUBSCRIBE"),
        SHARDED("SSUBSCRIBE", "SUNSUBSCRIBE");

        private final String subscribe;
        private final String unsubscribe;

        Kind(String subscribe, String unsubscribe) {
            this.subscribe = subscribe;
            this.unsubscribe = unsubscribe;
        }
    }

    record Key(Kind kind, String name) {
        String command(boolean subscribe) {
            return (subscribe ? kind.subscribe : kind.unsubscribe) + " " + name;
        }

        @Override
        public String toString() {
            return kind.name().toLowerCase(Locale.ROOT) + " " + name;
        }
    }

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
    /** What the user asked for; read without the lock to filter deliveries. */
    private final Set<Key> desired = ConcurrentHashMap.newKeySet();
    private final Set<Key> confirmed = new HashSet<>();
    private final Map<Key, Integer> inFlight = new HashMap<>();
    private Session session;
    /** The current session's loop runs, so commands may be sent on its connection. */
    private boolean live;
    /**
     * A session was lost with subscriptions on it: resubscribed() is due once all are back. Never
     * true while nothing is desired: whatever empties {@link #desired} clears it and tells the host.
     */
    private boolean owed;
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
    void change(Key key, boolean subscribe) {
        try {
            settle(key, subscribe);
        } finally {
            // An unsubscribe, or a subscribe that failed and was taken back, may empty this one.
            if (forgiveIfIdle()) {
                host.recovered(this);
            }
        }
    }

    private void settle(Key key, boolean subscribe) {
        Session killed = null;
        StoreUnavailableException failure;
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the pub/sub connection is closed");
            }
            boolean changed = subscribe ? desired.add(key) : desired.remove(key);
            long budget = commandTimeoutMillis + (live ? 0 : connectTimeoutMillis);
            if (live) {
                send(session, key, subscribe);
            } else {
                lock.notifyAll();
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(budget);
            while (!settled(key, subscribe)) {
                if (closed) {
                    throw new IllegalStateException("the pub/sub connection was closed during " + key.command(subscribe));
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                waitOnLock(TimeUnit.NANOSECONDS.toMillis(left) + 1);
            }
            if (settled(key, subscribe)) {
                return;
            }
            // A failed subscribe leaves nothing behind; a failed unsubscribe still takes effect
            // when the connection comes back, since nothing re-subscribes what is not desired.
            if (subscribe && changed) {
                desired.remove(key);
            }
            String action = key.command(subscribe) + " on " + (node != null ? node : host.node());
            if (live) {
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
    void adopt(Set<Key> keys) {
        synchronized (lock) {
            if (closed) {
                return;
            }
            owed = true;
            for (Key key : keys) {
                if (desired.add(key) && live) {
                    send(session, key, true);
                }
            }
            lock.notifyAll();
        }
    }

    /**
     * Gives up subscriptions that moved to another node; only called between sessions. Returns
     * those it still held, since an unsubscribe may have come first. May end what this one owes,
     * so the caller looks at {@link #owes()}.
     */
    Set<Key> release(Set<Key> keys) {
        synchronized (lock) {
            Set<Key> released = new HashSet<>();
            for (Key key : keys) {
                if (desired.remove(key)) {
                    released.add(key);
                }
            }
            forgiveIfIdle();
            lock.notifyAll();
            return released;
        }
    }

    /**
     * A subscriber left with nothing to resubscribe owes no announcement. Clearing the debt here,
     * the moment the last channel leaves, rather than when the thread next looks, matters: the
     * node that took the channels over may finish first and find this one still owing, and then
     * nobody would announce. True if a debt was cleared, so the host should check again.
     */
    private boolean forgiveIfIdle() {
        synchronized (lock) {
            if (owed && desired.isEmpty()) {
                owed = false;
                return true;
            }
            return false;
        }
    }

    boolean holds(Key key) {
        return desired.contains(key);
    }

    Set<Key> desired() {
        return Set.copyOf(desired);
    }

    HostAndPort currentNode() {
        synchronized (lock) {
            return node;
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

    private boolean settled(Key key, boolean subscribe) {
        if (inFlight.getOrDefault(key, 0) > 0) {
            return false;
        }
        // If another caller reversed this change meanwhile, this one is done: it happened first.
        return subscribe ? confirmed.contains(key) || !desired.contains(key) : !confirmed.contains(key) || desired.contains(key);
    }

    private void loop() {
        long backoff = 0;
        while (true) {
            synchronized (lock) {
                while (!closed && desired.isEmpty()) {
                    waitOnLock(0);
                }
                if (closed) {
                    return;
                }
            }
            if (backoff > 0 && !pause(backoff)) {
                return;
            }
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
                if (closed || desired.isEmpty()) {
                    closeQuietly(connection);
                    continue;
                }
                Key anchor = desired.iterator().next();
                current = sharded ? new ShardedSession(connection, anchor) : new ClassicSession(connection, anchor);
                session = current;
                node = target;
                live = false;
                inFlight.merge(anchor, 1, Integer::sum);
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
            boolean becameOwed = false;
            synchronized (lock) {
                wasLive = live;
                stillWanted = !desired.isEmpty();
                session = null;
                live = false;
                confirmed.clear();
                inFlight.clear();
                if (closed) {
                    return;
                }
                if (lost && wasLive && stillWanted) {
                    becameOwed = !owed;
                    owed = true;
                }
                if (failure != null) {
                    lastFailure = failure;
                }
                lock.notifyAll();
            }
            if (becameOwed) {
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

    /** Called on the loop thread for every subscribe or unsubscribe reply. */
    private void confirmation(Session from, Key key, boolean subscribed, int remaining) {
        boolean announce;
        boolean resync = false;
        synchronized (lock) {
            if (from != session) {
                return;
            }
            from.drained = remaining == 0;
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
            if (!live) {
                live = true;
                lastFailure = null;
                for (Key other : desired) {
                    if (!other.equals(from.anchor)) {
                        send(from, other, true);
                    }
                }
                if (!desired.contains(from.anchor)) {
                    send(from, from.anchor, false);
                }
            } else if (pending == 0) {
                if (!subscribed && desired.contains(key)) {
                    // Unasked: Redis dropped a sharded channel whose slot moved to another node.
                    resync = true;
                    from.dropped = true;
                } else if (subscribed && !desired.contains(key)) {
                    send(from, key, false);
                }
            }
            announce = owed && everythingConfirmed();
            if (announce) {
                owed = false;
            }
            lock.notifyAll();
        }
        if (resync) {
            from.kill();
        } else if (announce) {
            host.recovered(this);
        }
    }

    /** True while a lost session's subscriptions are not all back. */
    boolean owes() {
        synchronized (lock) {
            return owed;
        }
    }

    private boolean everythingConfirmed() {
        for (Key key : desired) {
            if (!confirmed.contains(key) || inFlight.containsKey(key)) {
                return false;
            }
        }
        return true;
    }

    /** Under {@link #lock}: the single place that writes to the connection after the anchor. */
    private void send(Session target, Key key, boolean subscribe) {
        inFlight.merge(key, 1, Integer::sum);
        try {
            target.send(key, subscribe);
        } catch (RuntimeException e) {
            lastFailure = e;
            // The loop notices the broken connection through its blocked read once it is closed.
            target.kill();
        }
    }

    private void message(Kind kind, String channel, String payload) {
        if (channel != null && !channel.isEmpty() && desired.contains(new Key(kind, channel))) {
            host.message(channel, payload);
        }
    }

    private void patternMessage(String pattern, String channel, String payload) {
        if (channel != null && !channel.isEmpty() && desired.contains(new Key(Kind.PATTERN, pattern))) {
            host.patternMessage(pattern, channel, payload);
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

    /** One connection and Jedis's loop over it. */
    private abstract static class Session {
        final Connection connection;
        final Key anchor;
        /** The last reply counted no subscription left, which ends Jedis's loop. */
        boolean drained;
        /** Redis dropped a subscription nobody asked to drop. */
        boolean dropped;

        Session(Connection connection, Key anchor) {
            this.connection = connection;
            this.anchor = anchor;
        }

        abstract void run();

        abstract void send(Key key, boolean subscribe);

        /** Closes the socket under the blocked loop, which then ends with an exception. */
        void kill() {
            try {
                connection.forceDisconnect();
            } catch (Exception e) {
                LOG.debug("closing a pub/sub socket failed: {}", e.toString());
            }
        }
    }

    private final class ClassicSession extends Session {
        private final JedisPubSub pubSub = new JedisPubSub() {
            @Override
            public void onMessage(String channel, String message) {
                message(Kind.CHANNEL, channel, message);
            }

            @Override
            public void onPMessage(String pattern, String channel, String message) {
                patternMessage(pattern, channel, message);
            }

            @Override
            public void onSubscribe(String channel, int subscribedChannels) {
                confirmation(ClassicSession.this, new Key(Kind.CHANNEL, channel), true, subscribedChannels);
            }

            @Override
            public void onUnsubscribe(String channel, int subscribedChannels) {
                confirmation(ClassicSession.this, new Key(Kind.CHANNEL, channel), false, subscribedChannels);
            }

            @Override
            public void onPSubscribe(String pattern, int subscribedChannels) {
                confirmation(ClassicSession.this, new Key(Kind.PATTERN, pattern), true, subscribedChannels);
            }

            @Override
            public void onPUnsubscribe(String pattern, int subscribedChannels) {
                confirmation(ClassicSession.this, new Key(Kind.PATTERN, pattern), false, subscribedChannels);
            }
        };

        ClassicSession(Connection connection, Key anchor) {
            super(connection, anchor);
        }

        @Override
        void run() {
            if (anchor.kind() == Kind.PATTERN) {
                pubSub.proceedWithPatterns(connection, anchor.name());
            } else {
                pubSub.proceed(connection, anchor.name());
            }
        }

        @Override
        void send(Key key, boolean subscribe) {
            switch (key.kind()) {
                case CHANNEL -> {
                    if (subscribe) {
                        pubSub.subscribe(key.name());
                    } else {
                        pubSub.unsubscribe(key.name());
                    }
                }
                case PATTERN -> {
                    if (subscribe) {
                        pubSub.psubscribe(key.name());
                    } else {
                        pubSub.punsubscribe(key.name());
                    }
                }
                case SHARDED -> throw new IllegalArgumentException("a classic connection carries no sharded channel");
            }
        }
    }

    private final class ShardedSession extends Session {
        private final JedisShardedPubSub pubSub = new JedisShardedPubSub() {
            @Override
            public void onSMessage(String channel, String message) {
                message(Kind.SHARDED, channel, message);
            }

            @Override
            public void onSSubscribe(String channel, int subscribedChannels) {
                confirmation(ShardedSession.this, new Key(Kind.SHARDED, channel), true, subscribedChannels);
            }

            @Override
            public void onSUnsubscribe(String channel, int subscribedChannels) {
                confirmation(ShardedSession.this, new Key(Kind.SHARDED, channel), false, subscribedChannels);
            }
        };

        ShardedSession(Connection connection, Key anchor) {
            super(connection, anchor);
        }

        @Override
        void run() {
            pubSub.proceed(connection, anchor.name());
        }

        @Override
        void send(Key key, boolean subscribe) {
            if (key.kind() != Kind.SHARDED) {
                throw new IllegalArgumentException("a sharded connection carries only sharded channels");
            }
            if (subscribe) {
                pubSub.ssubscribe(key.name());
            } else {
                pubSub.sunsubscribe(key.name());
            }
        }
    }
}
