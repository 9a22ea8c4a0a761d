package dev.pigeonhole.adapter.redis.redisson;

import dev.pigeonhole.adapter.redis.LostConnections;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.SerialDelivery;
import org.redisson.client.RedisClient;
import org.redisson.client.protocol.pubsub.PubSubType;
import org.redisson.connection.ServiceManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * subscribes again to everything it held. Each {@link RedissonNodeConnection} counts Redis's
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
    record Key(PubSubType kind, String name) {
    }

    private final RedissonDriver driver;
    private final ServiceManager services;
    private final RedissonFailures failures;
    private final PubSubListener listener;
    private final Consumer<RedissonPubSub> onClose;
    private final SerialDelivery delivery;
    private final LostConnections<RedissonNodeConnection> lost;
    /** Node connections by node, host:port; the classic one under {@link #classicNode}. */
    private final Map<String, RedissonNodeConnection> nodes = new ConcurrentHashMap<>();
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
        RedissonNodeConnection node;
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
    private RedissonNodeConnection owner(Key key) {
        for (RedissonNodeConnection node : nodes.values()) {
            if (node.wants(key)) {
                return node;
            }
        }
        return null;
    }

    static PubSubType unsubscribing(PubSubType kind) {
        return switch (kind) {
            case SUBSCRIBE -> PubSubType.UNSUBSCRIBE;
            case PSUBSCRIBE -> PubSubType.PUNSUBSCRIBE;
            case SSUBSCRIBE -> PubSubType.SUNSUBSCRIBE;
            default -> kind;
        };
    }

    static PubSubType subscribing(PubSubType kind) {
        return switch (kind) {
            case UNSUBSCRIBE -> PubSubType.SUBSCRIBE;
            case PUNSUBSCRIBE -> PubSubType.PSUBSCRIBE;
            case SUNSUBSCRIBE -> PubSubType.SSUBSCRIBE;
            default -> kind;
        };
    }

    private RedissonNodeConnection node(String address, String action) {
        RedissonNodeConnection existing = nodes.get(address);
        if (existing != null) {
            return existing;
        }
        synchronized (nodes) {
            checkOpen();
            existing = nodes.get(address);
            if (existing != null) {
                return existing;
            }
            RedissonNodeConnection created = new RedissonNodeConnection(address, services, driver.isCluster(), failures, lost, closed::get, delivery, listener);
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
                RedissonNodeConnection owner = owner(key);
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
            nodes.values().forEach(RedissonNodeConnection::close);
            nodes.clear();
        }
        onClose.accept(this);
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("this subscription connection to " + failures.endpoint() + " is closed");
        }
    }
}
