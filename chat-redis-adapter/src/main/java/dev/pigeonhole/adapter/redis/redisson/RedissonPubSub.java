package dev.pigeonhole.adapter.redis.redisson;

import dev.pigeonhole.adapter.redis.LostConnections;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.SerialDelivery;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import org.redisson.client.ChannelName;
import org.redisson.client.RedisClient;
import org.redisson.client.RedisClientConfig;
import org.redisson.client.RedisPubSubConnection;
import org.redisson.client.RedisPubSubListener;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.pubsub.PubSubType;
import org.redisson.config.MasterSlaveServersConfig;
import org.redisson.connection.ServiceManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A {@link PubSubConnection} on subscription connections of its own, made with Redisson's
 * low-level {@link RedisClient} on the driver's event loops: one to the single node, or on a
 * cluster one to a primary for classic channels and patterns and one to each primary that
 * serves a sharded channel. They are this subscription's alone, not Redisson's shared
 * subscription pool, so that closing it closes them and a lost one is this subscription's loss.
 *
 * <p><b>Resubscription.</b> Redisson's connection watchdog reconnects a lost connection and
 * subscribes again to everything it held. Each {@link NodeConnection} counts Redis's
 * confirmations after a loss; when everything it wants is confirmed again it is back, and once
 * every lost one is back ({@link LostConnections}) the listener hears
 * {@link PubSubListener#resubscribed()}.
 *
 * <p><b>A slot that moves.</b> When resharding gives a sharded channel's slot to another primary,
 * Redis drops the subscription with an SUNSUBSCRIBE nobody asked for, which Redisson's decoder
 * discards unseen (it reads a confirmation only for a command it sent). So the subscription
 * watches Redisson's slot map instead, which is how Redisson's own topics learn of a move: every
 * second it compares each sharded channel's owner there with the connection holding it, and
 * subscribes a channel that moved again on the owner the map names, off the timer's thread. The
 * same map decides both, so a channel is never moved back and forth between two spellings of one
 * node's address. The listener then hears {@link PubSubListener#resubscribed()}, since what was
 * published to the new owner meanwhile is lost. Redisson reads the slot map every 5 s, so a move
 * is followed within about 6 s.
 */
final class RedissonPubSub implements PubSubConnection {

    private static final Logger LOG = LoggerFactory.getLogger(RedissonPubSub.class);

    /** How often sharded channels are compared with Redisson's slot map. */
    private static final long SLOT_CHECK_MS = 1000;
    /** Tries at subscribing a moved channel on its slot's owner, a check's interval apart. */
    private static final int FOLLOW_ATTEMPTS = 5;

    /** A subscription as Redis confirms it: the kind of command and the name. */
    private record Key(PubSubType kind, String name) {
    }

    private final RedissonDriver driver;
    private final ServiceManager services;
    private final RedissonFailures failures;
    private final PubSubListener listener;
    private final Consumer<RedissonPubSub> onClose;
    private final SerialDelivery delivery;
    private final LostConnections<NodeConnection> lost;
    /** Node connections by node, host:port; the classic one under {@link #classicNode}. */
    private final Map<String, NodeConnection> nodes = new ConcurrentHashMap<>();
    private final String classicNode;
    /** Sharded channels that moved and are not yet subscribed again; an unsubscribe takes one out. */
    private final Set<String> following = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();

    private RedissonPubSub(RedissonDriver driver, ServiceManager services, RedissonFailures failures, PubSubListener listener,
                           Consumer<RedissonPubSub> onClose) {
        this.driver = driver;
        this.services = services;
        this.failures = failures;
        this.listener = listener;
        this.onClose = onClose;
        this.delivery = new SerialDelivery("subscription connection to " + failures.endpoint());
        this.lost = new LostConnections<>(() -> delivery.submit(listener::resubscribed));
        this.classicNode = driver.primaries().getFirst();
    }

    /** Opens the connection for classic channels; {@code StoreUnavailableException} if Redis cannot be reached in time. */
    static RedissonPubSub open(RedissonDriver driver, ServiceManager services, RedissonFailures failures,
                               PubSubListener listener, Consumer<RedissonPubSub> onClose) {
        Objects.requireNonNull(listener, "listener");
        RedissonPubSub pubSub = new RedissonPubSub(driver, services, failures, listener, onClose);
        try {
            pubSub.node(pubSub.classicNode, "a pub/sub connection");
            if (driver.isCluster()) {
                pubSub.checkSlotsLater();
            }
        } catch (RuntimeException e) {
            pubSub.close();
            throw e;
        }
        return pubSub;
    }

    @Override
    public void subscribe(String channel, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        change(channel, sharded && driver.isCluster() ? PubSubType.SSUBSCRIBE : PubSubType.SUBSCRIBE, true);
    }

    @Override
    public void unsubscribe(String channel, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        following.remove(channel);
        change(channel, sharded && driver.isCluster() ? PubSubType.SSUBSCRIBE : PubSubType.SUBSCRIBE, false);
    }

    @Override
    public void psubscribe(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        change(pattern, PubSubType.PSUBSCRIBE, true);
    }

    @Override
    public void punsubscribe(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        change(pattern, PubSubType.PSUBSCRIBE, false);
    }

    private void change(String name, PubSubType kind, boolean subscribe) {
        checkOpen();
        String action = (subscribe ? kind.name() : unsubscribing(kind).name()) + " " + name;
        Key key = new Key(kind, name);
        NodeConnection node;
        if (kind == PubSubType.SSUBSCRIBE) {
            node = subscribe ? node(driver.nodeOf(name), action) : owner(key);
            if (node == null) {
                return;
            }
        } else {
            node = node(classicNode, action);
        }
        node.change(key, subscribe, action);
    }

    /** The node connection that holds a sharded channel, or null if none does. */
    private NodeConnection owner(Key key) {
        for (NodeConnection node : nodes.values()) {
            if (node.wants(key)) {
                return node;
            }
        }
        return null;
    }

    private static PubSubType unsubscribing(PubSubType kind) {
        return switch (kind) {
            case SUBSCRIBE -> PubSubType.UNSUBSCRIBE;
            case PSUBSCRIBE -> PubSubType.PUNSUBSCRIBE;
            case SSUBSCRIBE -> PubSubType.SUNSUBSCRIBE;
            default -> kind;
        };
    }

    private static PubSubType subscribing(PubSubType kind) {
        return switch (kind) {
            case UNSUBSCRIBE -> PubSubType.SUBSCRIBE;
            case PUNSUBSCRIBE -> PubSubType.PSUBSCRIBE;
            case SUNSUBSCRIBE -> PubSubType.SSUBSCRIBE;
            default -> kind;
        };
    }

    private NodeConnection node(String address, String action) {
        NodeConnection existing = nodes.get(address);
        if (existing != null) {
            return existing;
        }
        synchronized (nodes) {
            checkOpen();
            existing = nodes.get(address);
            if (existing != null) {
                return existing;
            }
            NodeConnection created = new NodeConnection(address);
            created.connect(action);
            nodes.put(address, created);
            return created;
        }
    }

    private void checkSlotsLater() {
        services.newTimeout(timeout -> checkSlots(), SLOT_CHECK_MS, TimeUnit.MILLISECONDS);
    }

    /** Finds the sharded channels whose slot Redisson now sees on another primary. On the timer's thread. */
    private void checkSlots() {
        if (closed.get()) {
            return;
        }
        try {
            nodes.forEach((address, node) -> node.sharded().forEach(key -> {
                if (!address.equals(driver.nodeOf(key.name())) && following.add(key.name())) {
                    LOG.debug("the slot of sharded channel {} of {} moved", key.name(), failures.endpoint());
                    node.forget(key);
                    follow(key.name(), FOLLOW_ATTEMPTS);
                }
            }));
        } catch (RuntimeException e) {
            LOG.debug("checking the slots of {} failed; trying again", failures.endpoint(), e);
        } finally {
            checkSlotsLater();
        }
    }

    /** Subscribes a channel whose slot moved on the owner Redisson's slot map names, off the timer's thread. */
    private void follow(String channel, int attemptsLeft) {
        services.getExecutor().execute(() -> {
            if (closed.get() || !following.contains(channel)) {
                return;
            }
            String action = "SSUBSCRIBE " + channel + " on its slot's new owner";
            Key key = new Key(PubSubType.SSUBSCRIBE, channel);
            try {
                node(driver.nodeOf(channel), action).change(key, true, action);
            } catch (RuntimeException e) {
                if (attemptsLeft > 1 && !closed.get()) {
                    LOG.debug("{} failed, trying again", action, e);
                    services.newTimeout(timeout -> follow(channel, attemptsLeft - 1), SLOT_CHECK_MS, TimeUnit.MILLISECONDS);
                } else {
                    following.remove(channel);
                    LOG.warn("sharded channel {} of {} lost its subscription with its slot and could not subscribe again",
                            channel, failures.endpoint(), e);
                }
                return;
            }
            if (!following.remove(channel)) {
                // Unsubscribed meanwhile: what was just subscribed is not wanted.
                NodeConnection owner = owner(key);
                if (owner != null && !closed.get()) {
                    owner.change(key, false, "SUNSUBSCRIBE " + channel);
                }
                return;
            }
            LOG.debug("sharded channel {} of {} followed its slot", channel, failures.endpoint());
            delivery.submit(listener::resubscribed);
        });
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        delivery.close();
        synchronized (nodes) {
            nodes.values().forEach(NodeConnection::close);
            nodes.clear();
        }
        onClose.accept(this);
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("this subscription connection to " + failures.endpoint() + " is closed");
        }
    }

    /**
     * One connection to one node: a {@link RedisClient} of its own (so that its connect and
     * disconnect callbacks speak of this connection alone) on the driver's event loops and timer.
     */
    private final class NodeConnection implements RedisPubSubListener<Object> {

        private final RedisClient client;
        private final Set<Key> wanted = ConcurrentHashMap.newKeySet();
        private final Set<Key> confirmed = ConcurrentHashMap.newKeySet();
        private final Map<Key, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();
        private volatile RedisPubSubConnection connection;

        NodeConnection(String address) {
            MasterSlaveServersConfig config = services.getConfig();
            RedisClientConfig clientConfig = new RedisClientConfig()
                    .setAddress(config.getMasterAddress() != null && !driver.isCluster() ? config.getMasterAddress()
                            : "redis://" + address)
                    .setGroup(services.getGroup())
                    .setTimer(services.getTimer())
                    .setExecutor(services.getExecutor())
                    .setResolverGroup(services.getResolverGroup())
                    .setSocketChannelClass(services.getSocketChannelClass())
                    .setConnectTimeout(config.getConnectTimeout())
                    .setCommandTimeout(config.getTimeout())
                    .setUsername(services.getCfg().getUsername())
                    .setPassword(services.getCfg().getPassword())
                    .setDatabase(config.getDatabase())
                    .setClientName(config.getClientName())
                    .setKeepAlive(true)
                    .setTcpNoDelay(true)
                    .setDisconnectedListener(where -> disconnected());
            this.client = RedisClient.create(clientConfig);
        }

        void connect(String action) {
            connection = failures.await(client.connectPubSubAsync(), action, failures.deadline());
        }

        boolean wants(Key key) {
            return wanted.contains(key);
        }

        List<Key> sharded() {
            return wanted.stream().filter(key -> key.kind() == PubSubType.SSUBSCRIBE).toList();
        }

        /** Lets go of a channel Redis no longer serves here (its slot moved), without a command. */
        void forget(Key key) {
            wanted.remove(key);
            confirmed.remove(key);
            connection.removeListener(new ChannelName(key.name()), this);
            // Lost, and what it has left is all back (or nothing): it owes no announcement now.
            backIfComplete();
        }

        private void backIfComplete() {
            if (lost.isLost(this) && confirmed.containsAll(wanted)) {
                LOG.debug("a subscription connection to {} is back", failures.endpoint());
                lost.back(this);
            }
        }

        /** Sends the change and returns once Redis confirmed it. */
        void change(Key key, boolean subscribe, String action) {
            if (subscribe ? !wanted.add(key) : !wanted.remove(key)) {
                return;
            }
            CompletableFuture<Void> done = new CompletableFuture<>();
            waiting.put(key, done);
            ChannelName name = new ChannelName(key.name());
            try {
                if (subscribe) {
                    connection.addListener(name, this);
                    switch (key.kind()) {
                        case SUBSCRIBE -> connection.subscribe(StringCodec.INSTANCE, name);
                        case PSUBSCRIBE -> connection.psubscribe(StringCodec.INSTANCE, name);
                        default -> connection.ssubscribe(StringCodec.INSTANCE, name);
                    }
                } else {
                    connection.unsubscribe(unsubscribing(key.kind()), name);
                }
                failures.await(done, action, failures.deadline());
            } catch (RuntimeException e) {
                // A subscribe that could not be confirmed leaves nothing behind.
                if (subscribe) {
                    wanted.remove(key);
                }
                throw e instanceof StoreUnavailableException ? e : failures.translate(e, action);
            } finally {
                waiting.remove(key, done);
            }
        }

        /** Redis confirmed a (un)subscribe: on the caller's request, or the watchdog's after a reconnect. */
        @Override
        public void onStatus(PubSubType type, CharSequence channel) {
            boolean subscribed = type == PubSubType.SUBSCRIBE || type == PubSubType.PSUBSCRIBE || type == PubSubType.SSUBSCRIBE;
            Key key = new Key(subscribing(type), channel.toString());
            if (subscribed) {
                confirmed.add(key);
            } else {
                confirmed.remove(key);
                connection.removeListener(new ChannelName(key.name()), this);
            }
            CompletableFuture<Void> done = waiting.get(key);
            if (done != null) {
                done.complete(null);
            }
            backIfComplete();
        }

        private void disconnected() {
            if (closed.get()) {
                return;
            }
            confirmed.clear();
            if (!wanted.isEmpty()) {
                LOG.debug("a subscription connection to {} was lost", failures.endpoint());
                lost.lost(this);
            }
        }

        @Override
        public void onMessage(CharSequence channel, Object message) {
            Key key = new Key(PubSubType.SUBSCRIBE, channel.toString());
            Key shard = new Key(PubSubType.SSUBSCRIBE, channel.toString());
            if (wanted.contains(key) || wanted.contains(shard)) {
                delivery.submit(() -> listener.message(channel.toString(), String.valueOf(message)));
            }
        }

        @Override
        public void onPatternMessage(CharSequence pattern, CharSequence channel, Object message) {
            if (wanted.contains(new Key(PubSubType.PSUBSCRIBE, pattern.toString()))) {
                delivery.submit(() -> listener.patternMessage(pattern.toString(), channel.toString(), String.valueOf(message)));
            }
        }

        void close() {
            RedisPubSubConnection current = connection;
            if (current != null) {
                current.closeAsync();
            }
            client.shutdownAsync();
        }
    }
}
