package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.LostConnections;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A {@link PubSubConnection}: one {@link Subscriber} for classic channels and patterns, and on a
 * cluster one more per node that owns a subscribed sharded channel, since SSUBSCRIBE is served
 * only by the node that owns the channel's slot.
 */
final class JedisSubscription implements PubSubConnection {

    private static final Logger LOG = LoggerFactory.getLogger(JedisSubscription.class);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final PubSubListener listener;
    private final JedisClientConfig config;
    private final JedisFailures failures;
    private final long commandTimeoutMillis;
    private final long connectTimeoutMillis;
    private final HostAndPort singleNode;
    private final ClusterHandle cluster;
    private final Consumer<JedisSubscription> onClose;
    private final int id = SEQUENCE.incrementAndGet();

    /** Serializes listener calls across the subscriber threads of a cluster. */
    private final ReentrantLock delivery = new ReentrantLock();
    /** Every subscriber (one per node on a cluster) lost and not back; the listener hears of the last. */
    private final LostConnections<Subscriber> lost;
    private final Subscriber classic;
    /** Guarded by {@code this}. */
    private final Map<HostAndPort, Subscriber> shards = new HashMap<>();
    private volatile boolean closed;

    JedisSubscription(PubSubListener listener, JedisClientConfig config, RedisSettings settings, HostAndPort singleNode,
            ClusterHandle cluster, JedisFailures failures, Consumer<JedisSubscription> onClose) {
        this.listener = listener;
        this.config = config;
        this.failures = failures;
        this.commandTimeoutMillis = settings.commandTimeout().toMillis();
        this.connectTimeoutMillis = settings.connectTimeout().toMillis();
        this.singleNode = singleNode;
        this.cluster = cluster;
        this.onClose = onClose;
        this.lost = new LostConnections<>(() -> deliver(listener::resubscribed));
        this.classic = new Subscriber("redis-pubsub-" + id, false, new ClassicHost(), config, failures,
                commandTimeoutMillis, connectTimeoutMillis);
    }

    @Override
    public void subscribe(String channel, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        if (sharded && cluster != null) {
            SubscriptionKey key = SubscriptionKey.sharded(channel);
            shardFor(key, true).change(key, true);
        } else {
            classic.change(SubscriptionKey.channel(channel), true);
        }
    }

    @Override
    public void unsubscribe(String channel, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        if (sharded && cluster != null) {
            SubscriptionKey key = SubscriptionKey.sharded(channel);
            // A reroute may hand the channel to another node while this runs; look again after.
            for (int attempt = 0; attempt < 3; attempt++) {
                Subscriber holder = shardFor(key, false);
                if (holder == null) {
                    return;
                }
                holder.change(key, false);
            }
        } else {
            classic.change(SubscriptionKey.channel(channel), false);
        }
    }

    @Override
    public void psubscribe(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        classic.change(SubscriptionKey.pattern(pattern), true);
    }

    @Override
    public void punsubscribe(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        classic.change(SubscriptionKey.pattern(pattern), false);
    }

    @Override
    public void close() {
        List<Subscriber> all;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            all = new ArrayList<>(shards.values());
        }
        all.add(classic);
        for (Subscriber subscriber : all) {
            subscriber.close();
        }
        for (Subscriber subscriber : all) {
            subscriber.join();
        }
        onClose.accept(this);
    }

    /**
     * The subscriber that holds a sharded channel, or, when subscribing, the one for the node
     * that owns its slot now.
     */
    private Subscriber shardFor(SubscriptionKey key, boolean create) {
        HostAndPort owner;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the pub/sub connection is closed");
            }
            for (Subscriber shard : shards.values()) {
                if (shard.holds(key)) {
                    return shard;
                }
            }
        }
        if (!create) {
            return null;
        }
        try {
            owner = cluster.ownerOf(key.name());
        } catch (JedisException e) {
            throw failures.unavailable(key.command(true), e);
        }
        return shard(owner);
    }

    private synchronized Subscriber shard(HostAndPort node) {
        if (closed) {
            throw new IllegalStateException("the pub/sub connection is closed");
        }
        return shards.computeIfAbsent(node, n -> new Subscriber("redis-pubsub-" + id + "-" + n, true, new ShardHost(n),
                config, failures, commandTimeoutMillis, connectTimeoutMillis));
    }

    /**
     * After a node's connection failed, asks the cluster where each of its channels lives now
     * and moves those that changed node. A channel that moved lost what was published meanwhile,
     * so its new holder counts as lost until it confirms the channel, if the old one did.
     */
    private void reroute(Subscriber from, HostAndPort node) {
        if (closed) {
            return;
        }
        cluster.refresh();
        Map<HostAndPort, Set<SubscriptionKey>> moves = new HashMap<>();
        for (SubscriptionKey key : from.desired()) {
            try {
                HostAndPort owner = cluster.ownerOf(key.name());
                if (!owner.equals(node)) {
                    moves.computeIfAbsent(owner, n -> new HashSet<>()).add(key);
                }
            } catch (RuntimeException e) {
                LOG.debug("cannot locate the slot of {} yet: {}", key.name(), e.toString());
            }
        }
        // Under this lock, so that looking up a channel's holder never falls between the two.
        synchronized (this) {
            boolean owed = lost.isLost(from);
            for (Map.Entry<HostAndPort, Set<SubscriptionKey>> move : moves.entrySet()) {
                if (closed) {
                    return;
                }
                Set<SubscriptionKey> released = from.release(move.getValue());
                if (!released.isEmpty()) {
                    LOG.info("sharded channels {} moved from {} to {}", released, node, move.getKey());
                    Subscriber holder = shard(move.getKey());
                    if (owed) {
                        // Before the old holder is let off below, so the listener is not told too early.
                        lost.lost(holder);
                    }
                    holder.adopt(released);
                }
            }
        }
        // Outside the lock: the announcement calls the listener. Giving up its channels may have
        // ended what the old holder owed, while the new holders already confirmed theirs.
        if (!from.owes()) {
            lost.back(from);
        }
    }

    private void deliver(Runnable call) {
        // Polling instead of blocking: close() may be called from a listener on another
        // subscriber thread, which holds this lock while it waits for this thread to end.
        try {
            while (!delivery.tryLock(50, TimeUnit.MILLISECONDS)) {
                if (closed) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            if (!closed) {
                call.run();
            }
        } catch (RuntimeException e) {
            LOG.warn("a pub/sub listener failed; the connection goes on", e);
        } finally {
            delivery.unlock();
        }
    }

    /** What every subscriber of this connection shares: delivery to the one listener. */
    private abstract class Delivering implements Subscriber.Host {
        @Override
        public void message(String channel, String payload) {
            deliver(() -> listener.message(channel, payload));
        }

        @Override
        public void patternMessage(String pattern, String channel, String payload) {
            deliver(() -> listener.patternMessage(pattern, channel, payload));
        }

        @Override
        public void lost(Subscriber subscriber) {
            lost.lost(subscriber);
        }

        @Override
        public void recovered(Subscriber subscriber) {
            lost.back(subscriber);
        }
    }

    /** Classic pub/sub reaches every node of a cluster, so any node will do; try the next after a failure. */
    private final class ClassicHost extends Delivering {
        private int next;

        @Override
        public HostAndPort node() {
            if (cluster == null) {
                return singleNode;
            }
            List<HostAndPort> nodes = cluster.nodes();
            return nodes.get(Math.floorMod(next, nodes.size()));
        }

        @Override
        public void disrupted(Subscriber subscriber) {
            if (cluster != null) {
                next++;
                cluster.refresh();
            }
        }
    }

    private final class ShardHost extends Delivering {
        private final HostAndPort node;

        ShardHost(HostAndPort node) {
            this.node = node;
        }

        @Override
        public HostAndPort node() {
            return node;
        }

        @Override
        public void disrupted(Subscriber subscriber) {
            reroute(subscriber, node);
        }
    }
}
