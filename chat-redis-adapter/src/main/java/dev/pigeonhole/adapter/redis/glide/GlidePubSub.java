package dev.pigeonhole.adapter.redis.glide;

import dev.pigeonhole.adapter.redis.LostConnections;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.SerialDelivery;
import glide.api.BaseClient;
import glide.api.GlideClient;
import glide.api.GlideClusterClient;
import glide.api.models.PubSubMessage;
import glide.api.models.configuration.BaseSubscriptionConfiguration.MessageCallback;
import glide.api.models.configuration.PubSubState;
import glide.api.models.configuration.RequestRoutingConfiguration.SimpleMultiNodeRoute;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subscription client of GLIDE: a client of its own, made with a message callback, whose
 * channels, patterns and shard channels change at run time. GLIDE's {@code subscribe(channels,
 * timeout)} returns once Redis confirmed, as {@link PubSubConnection} asks.
 *
 * <p>GLIDE resubscribes by itself after a reconnect and says nothing. The loss is learnt here by
 * asking the client, every {@link #WATCH_INTERVAL}, who its connection to each node is (the
 * server's run id and the connection's {@code CLIENT ID}): a reconnected connection is another,
 * so a loss is seen even when GLIDE has mended it between two looks. The connection is back once GLIDE's own account of what Redis confirmed
 * ({@code getSubscriptions()}: actual) equals what it was asked for (desired), and the ids did not
 * change meanwhile; then the listener hears {@link PubSubListener#resubscribed()}, once
 * ({@link LostConnections}, with the whole client as its one connection).
 */
final class GlidePubSub implements PubSubConnection {

    private static final Logger LOG = LoggerFactory.getLogger(GlidePubSub.class);
    private static final Duration WATCH_INTERVAL = Duration.ofMillis(100);

    private final BaseClient client;
    private final GlideFailures failures;
    private final int timeoutMillis;
    private final SerialDelivery delivery;
    private final LostConnections<GlidePubSub> lost;
    private final Consumer<GlidePubSub> onClose;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread watcher;
    /** The subscriptions Redis confirmed, as "SUBSCRIBE name", "SSUBSCRIBE name", "PSUBSCRIBE name". */
    private final Set<String> confirmed = ConcurrentHashMap.newKeySet();
    /** The id of the connection to each node, as last seen; only the watcher touches it. */
    private Map<String, Object> connectionIds;

    private GlidePubSub(BaseClient client, GlideFailures failures, RedisSettings settings, SerialDelivery delivery,
                        PubSubListener listener, Consumer<GlidePubSub> onClose) {
        this.client = client;
        this.failures = failures;
        this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, settings.commandTimeout().toMillis());
        this.delivery = delivery;
        this.lost = new LostConnections<>(() -> delivery.submit(listener::resubscribed));
        this.onClose = onClose;
        this.connectionIds = failures.await(connectionIds(), "the subscription connection's id", failures.deadline());
        this.watcher = Thread.ofPlatform().daemon().name("glide-subscription-watch").unstarted(this::watch);
    }

    /** Opens the client; {@link dev.pigeonhole.domain.model.StoreUnavailableException} if Redis cannot be reached in time. */
    static GlidePubSub open(RedisSettings settings, GlideFailures failures, PubSubListener listener,
                            Consumer<GlidePubSub> onClose) {
        Objects.requireNonNull(listener, "listener");
        SerialDelivery delivery = new SerialDelivery("subscription connection to " + failures.endpoint());
        MessageCallback callback = (message, context) -> delivery.submit(() -> deliver(listener, message));
        CompletableFuture<? extends BaseClient> opening = GlideSetup.connect(settings, callback);
        BaseClient client;
        try {
            client = failures.await(opening, "a pub/sub connection", failures.deadline());
        } catch (RuntimeException e) {
            // Given up on, but it may still succeed: do not leave it open behind the caller's back.
            opening.thenAccept(GlideDriver::closeQuietly);
            throw e;
        }
        GlidePubSub pubSub;
        try {
            pubSub = new GlidePubSub(client, failures, settings, delivery, listener, onClose);
        } catch (RuntimeException e) {
            GlideDriver.closeQuietly(client);
            throw e;
        }
        pubSub.watcher.start();
        return pubSub;
    }

    private static void deliver(PubSubListener listener, PubSubMessage message) {
        String channel = message.getChannel().getString();
        String payload = message.getMessage().getString();
        if (message.getPattern().isPresent()) {
            listener.patternMessage(message.getPattern().get().getString(), channel, payload);
        } else {
            listener.message(channel, payload);
        }
    }

    @Override
    public void subscribe(String channel, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        checkOpen();
        if (sharded && client instanceof GlideClusterClient cluster) {
            add("SSUBSCRIBE", channel, () -> cluster.ssubscribe(Set.of(channel), timeoutMillis),
                    () -> cluster.sunsubscribeLazy(Set.of(channel)));
        } else {
            add("SUBSCRIBE", channel, () -> client.subscribe(Set.of(channel), timeoutMillis),
                    () -> client.unsubscribeLazy(Set.of(channel)));
        }
    }

    @Override
    public void unsubscribe(String channel, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        checkOpen();
        if (sharded && client instanceof GlideClusterClient cluster) {
            remove("SSUBSCRIBE", channel, () -> cluster.sunsubscribe(Set.of(channel), timeoutMillis));
        } else {
            remove("SUBSCRIBE", channel, () -> client.unsubscribe(Set.of(channel), timeoutMillis));
        }
    }

    @Override
    public void psubscribe(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        checkOpen();
        add("PSUBSCRIBE", pattern, () -> client.psubscribe(Set.of(pattern), timeoutMillis),
                () -> client.punsubscribeLazy(Set.of(pattern)));
    }

    @Override
    public void punsubscribe(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        checkOpen();
        remove("PSUBSCRIBE", pattern, () -> client.punsubscribe(Set.of(pattern), timeoutMillis));
    }

    /**
     * Asks for a subscription and waits for Redis's confirmation. GLIDE keeps what it was asked
     * for even when the wait fails, and would subscribe it later behind the caller's back; so a
     * subscription that was not held before is taken back then.
     */
    private void add(String kind, String name, Supplier<CompletableFuture<Void>> request,
                     Supplier<CompletableFuture<Void>> takeBack) {
        String held = kind + " " + name;
        try {
            change(held, request);
            confirmed.add(held);
        } catch (RuntimeException e) {
            if (!confirmed.contains(held)) {
                try {
                    takeBack.get();
                } catch (RuntimeException ignored) {
                    // closing, or nothing to take back
                }
            }
            throw e;
        }
    }

    /** {@code kind} names the subscription ("SSUBSCRIBE"); the action is its undoing ("SUNSUBSCRIBE"). */
    private void remove(String kind, String name, Supplier<CompletableFuture<Void>> request) {
        String undo = kind.equals("SUBSCRIBE") ? "UNSUBSCRIBE" : kind.charAt(0) + "UN" + kind.substring(1);
        change(undo + " " + name, request);
        confirmed.remove(kind + " " + name);
    }

    private void change(String action, Supplier<CompletableFuture<Void>> request) {
        CompletableFuture<Void> confirmation;
        try {
            confirmation = request.get();
        } catch (RuntimeException e) {
            confirmation = CompletableFuture.failedFuture(e);
        }
        failures.await(confirmation, action, failures.deadline());
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        watcher.interrupt();
        delivery.close();
        if (delivery.isCallingOnThisThread()) {
            // From inside a listener call this may be GLIDE's own callback thread: close elsewhere.
            Thread.ofVirtual().start(() -> GlideDriver.closeQuietly(client));
        } else {
            GlideDriver.closeQuietly(client);
        }
        onClose.accept(this);
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("this subscription connection to " + failures.endpoint() + " is closed");
        }
    }

    /** The watcher's loop: one look per interval until closed. */
    private void watch() {
        while (!closed.get()) {
            try {
                Thread.sleep(WATCH_INTERVAL);
                look();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!closed.get()) {
                    LOG.debug("watching the subscription connection to {} failed", failures.endpoint(), e);
                }
            }
        }
    }

    /**
     * A look that gets no answer says nothing: Redis may be slow, or paused. Only another
     * connection where the last look saw one is a loss; a restart or a reconnect always makes one.
     */
    private void look() {
        Map<String, Object> seen = idsOrNull();
        if (seen == null) {
            return;
        }
        if (!seen.equals(connectionIds)) {
            LOG.debug("a subscription connection to {} was lost", failures.endpoint());
            lost.lost(this);
            connectionIds = seen;
        }
        if (lost.isLost(this) && allConfirmed() && seen.equals(idsOrNull()) && !closed.get()) {
            LOG.debug("the subscription connection to {} is back with everything subscribed", failures.endpoint());
            lost.back(this);
        }
    }

    private Map<String, Object> idsOrNull() {
        try {
            return failures.await(connectionIds(), "CLIENT ID", failures.deadline());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Who this client's connection to each node is, by node: the server's run id and the
     * connection's {@code CLIENT ID}. The id alone would not do: a restarted server counts its
     * connections from 1 again, and may give the reconnected one the id the lost one had.
     */
    private CompletableFuture<Map<String, Object>> connectionIds() {
        return perNode(new String[] {"INFO", "server"}).thenCombine(perNode(new String[] {"CLIENT", "ID"}), (infos, ids) -> {
            Map<String, Object> identities = new HashMap<>();
            ids.forEach((node, id) -> identities.put(node, runId(infos.get(node)) + "/" + id));
            return Map.copyOf(identities);
        });
    }

    private CompletableFuture<Map<String, Object>> perNode(String[] command) {
        if (client instanceof GlideClusterClient cluster) {
            return cluster.customCommand(command, SimpleMultiNodeRoute.ALL_NODES).thenApply(value -> Map.copyOf(value.getMultiValue()));
        }
        return ((GlideClient) client).customCommand(command).thenApply(reply -> Map.of("", reply));
    }

    private static String runId(Object info) {
        return String.valueOf(info).lines().filter(line -> line.startsWith("run_id:")).findFirst().orElse("").strip();
    }

    /** True when GLIDE counts every channel, pattern and shard channel it was asked for as confirmed. */
    private boolean allConfirmed() {
        CompletableFuture<? extends PubSubState<?>> state = client instanceof GlideClusterClient cluster
                ? cluster.getSubscriptions()
                : ((GlideClient) client).getSubscriptions();
        PubSubState<?> now = failures.await(state, "the subscription state", failures.deadline());
        return sameSets(now.getDesiredSubscriptions(), now.getActualSubscriptions());
    }

    private static boolean sameSets(Map<?, Set<String>> desired, Map<?, Set<String>> actual) {
        Set<Object> modes = new HashSet<>(desired.keySet());
        modes.addAll(actual.keySet());
        for (Object mode : modes) {
            if (!desired.getOrDefault(mode, Set.of()).equals(actual.getOrDefault(mode, Set.of()))) {
                return false;
            }
        }
        return true;
    }
}
