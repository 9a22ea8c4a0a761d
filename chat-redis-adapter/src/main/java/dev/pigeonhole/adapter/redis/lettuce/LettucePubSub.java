package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.LostConnections;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.SerialDelivery;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
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
 * A {@link PubSubConnection} on one Lettuce subscription connection. On a cluster that is a
 * cluster subscription connection: classic channels and patterns live on its default node, and
 * each sharded channel on a connection Lettuce opens to the master of the channel's slot.
 *
 * <p><b>Resubscription.</b> Lettuce reconnects each of these connections by itself and, while
 * activating the new socket, writes SUBSCRIBE and PSUBSCRIBE for everything the old one had
 * confirmed. Only after that does it tell the connection's {@link RedisConnectionStateListener}s,
 * still on the event loop. A PING written from there is therefore queued behind the
 * resubscription, and since Redis answers a connection in order (and over RESP3 the PING's reply
 * is an ordinary reply, not confused with the confirmations), its reply proves every
 * resubscription before it has been answered. Once every connection that was lost has passed that
 * test, the listener hears {@link PubSubListener#resubscribed()}.
 *
 * <p>Sharded channels are resubscribed here, one SSUBSCRIBE each, before that PING. Lettuce
 * resubscribes all of a node's shard channels in a single SSUBSCRIBE, which Redis refuses with
 * CROSSSLOT as soon as they span two slots; sending them one by one works whatever the slots,
 * and routing them through the cluster connection follows a slot that moved meanwhile.
 *
 * <p><b>A slot that moves.</b> When resharding gives a channel's slot to another master, Redis
 * drops the channel's subscription with an SUNSUBSCRIBE nobody asked for, and Lettuce does nothing
 * more. An SUNSUBSCRIBE for a channel still wanted here may also be the late confirmation of an
 * unsubscribe that a subscribe has since overtaken, so the slot map is read again: if the slot's
 * owner is no longer the node that holds the channel, the channel is subscribed again there and
 * the listener hears {@link PubSubListener#resubscribed()}, since what was published to the new
 * owner in between is lost.
 */
final class LettucePubSub implements PubSubConnection {

    private static final Logger LOG = LoggerFactory.getLogger(LettucePubSub.class);

    /** A check that failed although its connection stayed up (a timeout) is tried again this often. */
    private static final int CHECK_ATTEMPTS = 3;

    private final StatefulRedisPubSubConnection<String, String> connection;
    /** The same connection when it is a cluster's, else null: it routes SSUBSCRIBE to the shard's node. */
    private final StatefulRedisClusterPubSubConnection<String, String> cluster;
    /** Reads the cluster's slot map again when a sharded channel's slot moved. */
    private final Connector<?> connector;
    private final LettuceFailures failures;
    private final PubSubListener listener;
    private final SerialDelivery delivery;
    private final Consumer<LettucePubSub> onClose;
    private final Messages messages = new Messages();

    /** Every underlying connection whose reconnects are followed: the main one and the shard nodes'. */
    private final Set<StatefulRedisPubSubConnection<String, String>> watched =
            Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    /** The watched connections lost and not yet proven resubscribed; the listener hears of the last. */
    private final LostConnections<StatefulRedisPubSubConnection<String, String>> lost;
    /** Each sharded channel and the node connection it was confirmed on. */
    private final Map<String, StatefulRedisPubSubConnection<String, String>> shardChannels = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private LettucePubSub(StatefulRedisPubSubConnection<String, String> connection, Connector<?> connector,
                          LettuceFailures failures, PubSubListener listener, Consumer<LettucePubSub> onClose) {
        this.connection = connection;
        this.cluster = connection instanceof StatefulRedisClusterPubSubConnection<String, String> c ? c : null;
        this.connector = connector;
        this.failures = failures;
        this.listener = listener;
        this.onClose = onClose;
        this.delivery = new SerialDelivery("subscription connection to " + failures.endpoint());
        this.lost = new LostConnections<>(() -> delivery.submit(listener::resubscribed));
        connection.addListener(messages);
        watch(connection);
    }

    /** Opens the connection; {@link StoreUnavailableException} if Redis cannot be reached in time. */
    static LettucePubSub open(Connector<?> connector, LettuceFailures failures, PubSubListener listener,
                              Consumer<LettucePubSub> onClose) {
        Objects.requireNonNull(listener, "listener");
        CompletableFuture<? extends StatefulRedisPubSubConnection<String, String>> opening = connector.connectPubSub();
        StatefulRedisPubSubConnection<String, String> connection;
        try {
            connection = failures.await(opening, "a pub/sub connection");
        } catch (RuntimeException e) {
            // Given up on, but it may still succeed: do not leave it open behind the caller's back.
            opening.thenAccept(StatefulRedisPubSubConnection::closeAsync);
            throw e;
        }
        return new LettucePubSub(connection, connector, failures, listener, onClose);
    }

    @Override
    public void subscribe(String channel, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        checkOpen();
        if (cluster != null && sharded) {
            String action = "SSUBSCRIBE " + channel;
            // Connected (and watched) first: a node connection still being made refuses commands.
            // Recorded before it is sent, so that a reconnect racing with it sends it again.
            shardChannels.put(channel, failures.call(() -> shardConnection(channel), action));
            try {
                failures.call(() -> cluster.async().ssubscribe(channel).toCompletableFuture()
                        .thenCompose(confirmed -> rehome(channel)), action);
            } catch (RuntimeException e) {
                shardChannels.remove(channel);
                throw e;
            }
        } else {
            failures.call(() -> connection.async().subscribe(channel), "SUBSCRIBE " + channel);
        }
    }

    @Override
    public void unsubscribe(String channel, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        checkOpen();
        if (cluster != null && sharded) {
            // Never subscribed here: nothing to undo, and the owning node's connection may not
            // even exist yet, which Lettuce would answer with "not connected".
            if (shardChannels.remove(channel) == null) {
                return;
            }
            failures.call(() -> cluster.async().sunsubscribe(channel), "SUNSUBSCRIBE " + channel);
        } else {
            failures.call(() -> connection.async().unsubscribe(channel), "UNSUBSCRIBE " + channel);
        }
    }

    @Override
    public void psubscribe(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        checkOpen();
        failures.call(() -> connection.async().psubscribe(pattern), "PSUBSCRIBE " + pattern);
    }

    @Override
    public void punsubscribe(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        checkOpen();
        failures.call(() -> connection.async().punsubscribe(pattern), "PUNSUBSCRIBE " + pattern);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        delivery.close();
        connection.removeListener(messages);
        // Closing the cluster connection closes its node connections too.
        CompletableFuture<Void> closing = connection.closeAsync();
        // From inside a listener call this thread may be the event loop that has to do the closing.
        if (!delivery.isCallingOnThisThread()) {
            try {
                closing.get(failures.deadline() - System.nanoTime(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.debug("closing a subscription connection to {} did not finish cleanly", failures.endpoint(), e);
            }
        }
        onClose.accept(this);
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("this subscription connection to " + failures.endpoint() + " is closed");
        }
    }

    /**
     * The node connection that serves {@code channel}'s slot, by host and port as Lettuce's slot
     * routing asks its pool (so it is the connection a routed SSUBSCRIBE uses), watched from now on.
     */
    private CompletableFuture<StatefulRedisPubSubConnection<String, String>> shardConnection(String channel) {
        int slot = SlotHash.getSlot(channel);
        RedisClusterNode owner = cluster.getPartitions().getMasterBySlot(slot);
        if (owner == null) {
            return CompletableFuture.failedFuture(new StoreUnavailableException(
                    "no master of " + failures.endpoint() + " serves slot " + slot + " of channel " + channel, null));
        }
        return cluster.getConnectionAsync(owner.getUri().getHost(), owner.getUri().getPort())
                .thenApply(node -> {
                    watch(node);
                    return node;
                });
    }

    /**
     * Records which node connection now serves a confirmed sharded channel: Lettuce routed the
     * SSUBSCRIBE by its view of the slots, which a MOVED may just have changed.
     */
    private CompletableFuture<Void> rehome(String channel) {
        return shardConnection(channel).thenAccept(node -> shardChannels.computeIfPresent(channel, (name, old) -> node));
    }

    /**
     * Reads the slot map again and, if {@code channel}'s slot has another owner than the node that
     * holds the channel, subscribes it there. Nothing here blocks.
     */
    private void followIfMoved(String channel, int attemptsLeft) {
        connector.refresh()
                .thenCompose(refreshed -> shardConnection(channel))
                .thenCompose(owner -> {
                    StatefulRedisPubSubConnection<String, String> holder = shardChannels.get(channel);
                    if (holder == null || holder == owner) {
                        return CompletableFuture.completedFuture(false);
                    }
                    return cluster.async().ssubscribe(channel).toCompletableFuture()
                            .thenCompose(confirmed -> rehome(channel)).thenApply(rehomed -> true);
                })
                .whenComplete((moved, failure) -> {
                    if (closed.get()) {
                        return;
                    }
                    if (!shardChannels.containsKey(channel)) {
                        if (Boolean.TRUE.equals(moved)) {
                            // Unsubscribed while it was being subscribed on its new owner.
                            cluster.async().sunsubscribe(channel);
                        }
                        return;
                    }
                    if (failure == null) {
                        if (!moved) {
                            return;
                        }
                        LOG.debug("sharded channel {} followed its slot on {}", channel, failures.endpoint());
                        delivery.submit(listener::resubscribed);
                    } else if (attemptsLeft > 1) {
                        LOG.debug("subscribing {} on its slot's new owner failed, trying again", channel, failure);
                        followIfMoved(channel, attemptsLeft - 1);
                    } else {
                        LOG.warn("sharded channel {} of {} lost its slot's subscription and could not subscribe again",
                                channel, failures.endpoint(), failure);
                    }
                });
    }

    private void watch(StatefulRedisPubSubConnection<String, String> underlying) {
        if (watched.add(underlying)) {
            underlying.addListener(new Reconnects(underlying));
        }
    }

    /** One watched connection's losses and returns. Called on its event loop: nothing here blocks. */
    private final class Reconnects implements RedisConnectionStateListener {

        private final StatefulRedisPubSubConnection<String, String> underlying;

        Reconnects(StatefulRedisPubSubConnection<String, String> underlying) {
            this.underlying = underlying;
        }

        @Override
        public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
            if (!closed.get()) {
                LOG.debug("a subscription connection to {} was lost", failures.endpoint());
                lost.lost(underlying);
            }
        }

        @Override
        public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
            // The first connect is not a return; only a connection seen lost is.
            if (!closed.get() && lost.isLost(underlying)) {
                LOG.debug("a subscription connection to {} is back, at {}", failures.endpoint(), address);
                resubscribe(CHECK_ATTEMPTS);
            }
        }

        private void resubscribe(int attemptsLeft) {
            List<CompletableFuture<?>> steps = new ArrayList<>();
            if (cluster != null) {
                shardChannels.forEach((channel, node) -> {
                    if (node == underlying) {
                        steps.add(cluster.async().ssubscribe(channel).toCompletableFuture()
                                .thenCompose(confirmed -> rehome(channel)));
                    }
                });
            }
            steps.add(underlying.async().ping().toCompletableFuture());
            CompletableFuture.allOf(steps.toArray(CompletableFuture[]::new)).whenComplete((done, failure) -> {
                if (closed.get()) {
                    return;
                }
                if (failure == null) {
                    back(underlying);
                } else if (underlying.isOpen() && attemptsLeft > 1) {
                    LOG.debug("resubscribing on {} failed, trying again", failures.endpoint(), failure);
                    resubscribe(attemptsLeft - 1);
                } else {
                    // Lost again, or given up on: its next connect starts over.
                    LOG.warn("resubscribing on {} failed", failures.endpoint(), failure);
                }
            });
        }
    }

    private void back(StatefulRedisPubSubConnection<String, String> underlying) {
        // A node connection Lettuce closed for good (its node left the cluster) never comes
        // back. (isOpen() would not tell: it is false while a connection is reconnecting.)
        lost.forgetIf(gone -> gone instanceof RedisChannelHandler<?, ?> handler && handler.isClosed());
        lost.back(underlying);
    }

    /** Lettuce's callbacks, handed to the listener one at a time. */
    private final class Messages extends RedisPubSubAdapter<String, String> {

        @Override
        public void message(String channel, String message) {
            delivery.submit(() -> listener.message(channel, message));
        }

        @Override
        public void message(String pattern, String channel, String message) {
            delivery.submit(() -> listener.patternMessage(pattern, channel, message));
        }

        @Override
        public void smessage(String shardChannel, String message) {
            delivery.submit(() -> listener.message(shardChannel, message));
        }

        @Override
        public void sunsubscribed(String shardChannel, long count) {
            // Our own SUNSUBSCRIBE forgets the channel before it is sent: for one still wanted,
            // either Redis dropped it, because its slot moved, or a subscribe overtook ours.
            if (!closed.get() && cluster != null && shardChannels.containsKey(shardChannel)) {
                LOG.debug("SUNSUBSCRIBE for wanted sharded channel {} of {}", shardChannel, failures.endpoint());
                followIfMoved(shardChannel, CHECK_ATTEMPTS);
            }
        }
    }
}
