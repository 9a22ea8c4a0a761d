package dev.pigeonhole.adapter.redis.glide;

import dev.pigeonhole.adapter.redis.FunctionCall;
import dev.pigeonhole.adapter.redis.FunctionLibrary;
import dev.pigeonhole.adapter.redis.HashSlot;
import dev.pigeonhole.adapter.redis.MissingFunctionException;
import dev.pigeonhole.adapter.redis.PingPatience;
import dev.pigeonhole.adapter.redis.OpenSubscriptions;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.Replicated;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import glide.api.BaseClient;
import glide.api.GlideClient;
import glide.api.GlideClusterClient;
import glide.api.models.BaseBatch;
import glide.api.models.Batch;
import glide.api.models.ClusterBatch;
import glide.api.models.ClusterValue;
import glide.api.models.commands.batch.BatchOptions;
import glide.api.models.configuration.RequestRoutingConfiguration.ByAddressRoute;
import glide.api.models.configuration.RequestRoutingConfiguration.SimpleMultiNodeRoute;
import glide.api.models.configuration.RequestRoutingConfiguration.SimpleSingleNodeRoute;
import glide.api.models.configuration.RequestRoutingConfiguration.SlotKeyRoute;
import glide.api.models.configuration.RequestRoutingConfiguration.SlotType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link RedisDriver} on Valkey GLIDE: {@code GlideClient} for a single node,
 * {@code GlideClusterClient} for a cluster. GLIDE's core, in Rust behind JNI, keeps one
 * multiplexed connection per node and pipelines concurrent callers over it, routes a function
 * call by its keys, follows MOVED and ASK, and reconnects by itself.
 *
 * <p>The client is created on first need rather than only in the constructor: GLIDE refuses to
 * create one while Redis cannot be reached, and a process started during an outage should fail its
 * calls, not its start, and recover once Redis is back.
 *
 * <p>A request GLIDE has written is not sent again when its connection breaks: the caller hears
 * of the broken connection. A batch is sent without GLIDE's retries (they are off by default), so
 * only a call that found no function is made again, here.
 */
public final class GlideDriver implements RedisDriver {

    private static final Logger LOG = LoggerFactory.getLogger(GlideDriver.class);

    private final RedisSettings settings;
    private final boolean cluster;
    private final GlideFailures failures;
    private final PingPatience pingPatience;
    private final Object connecting = new Object();
    /** Guarded by {@link #connecting}: the client, made or being made; null after a failed attempt. */
    private CompletableFuture<? extends BaseClient> client;
    /** On a cluster, the primary serving each slot as last read; null where none was known. */
    private volatile String[] slots = new String[HashSlot.SLOTS];
    private final OpenSubscriptions<GlidePubSub> pubSubs = new OpenSubscriptions<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    public GlideDriver(RedisSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.cluster = settings.endpoint() instanceof RedisSettings.Cluster;
        this.failures = new GlideFailures(new RedisFailures(settings),
                settings.connectTimeout().plus(settings.commandTimeout().multipliedBy(2)));
        this.pingPatience = new PingPatience(settings);
        // Connect in the background so the first call finds the client ready; if this attempt
        // fails, the first call makes another.
        synchronized (connecting) {
            client = GlideSetup.connect(settings, null);
        }
    }

    @Override
    public Object run(FunctionCall call) {
        Objects.requireNonNull(call, "call");
        return FunctionLibrary.loadingOnMiss(this, call, () -> callOnce(call));
    }

    private Object callOnce(FunctionCall call) {
        String action = "function " + call.function().name();
        long deadline = failures.deadline();
        BaseClient glide = client(action, deadline);
        String[] keys = call.keys().toArray(String[]::new);
        String[] args = call.args().toArray(String[]::new);
        CompletableFuture<Object> reply;
        try {
            reply = call.function().readOnly()
                    ? glide.fcallReadOnly(call.function().name(), keys, args)
                    : glide.fcall(call.function().name(), keys, args);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return GlideReplies.normalize(action, failures.awaitCall(reply, action, deadline));
    }

    @Override
    public Replicated runReplicated(FunctionCall call, int replicas, Duration timeout) {
        Objects.requireNonNull(call, "call");
        return FunctionLibrary.loadingOnMiss(this, call, () -> replicatedOnce(call, replicas, timeout));
    }

    /**
     * On a single node, the call and its WAIT as one non-atomic batch, which GLIDE writes on its
     * one connection. On a cluster GLIDE routes a batch's keyless WAIT by its own policy, not with
     * the call (a batch's route did not hold for it), so the WAIT follows the call's reply as a
     * command of its own, routed by the call's key to the same primary's connection: two round
     * trips there.
     */
    private Replicated replicatedOnce(FunctionCall call, int replicas, Duration timeout) {
        String action = "function " + call.function().name() + " and WAIT";
        long deadline = failures.deadline() + timeout.toNanos();
        BaseClient glide = client(action, deadline);
        String[] wait = {"WAIT", Integer.toString(replicas), Long.toString(timeout.toMillis())};
        if (glide instanceof GlideClusterClient clusterClient) {
            Object reply = callOnce(call);
            CompletableFuture<Object> acknowledged;
            try {
                acknowledged = clusterClient.customCommand(wait, new SlotKeyRoute(call.routingKey(), SlotType.PRIMARY))
                        .thenApply(ClusterValue::getSingleValue);
            } catch (RuntimeException e) {
                acknowledged = CompletableFuture.failedFuture(e);
            }
            return new Replicated(reply, (Long) failures.awaitCall(acknowledged, action, deadline));
        }
        CompletableFuture<Object[]> sent;
        try {
            sent = ((GlideClient) glide).exec(add(new Batch(false), List.of(call)).customCommand(wait), false,
                    BatchOptions.builder().timeout(Math.toIntExact(settings.commandTimeout().plus(timeout).toMillis()))
                            .build());
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        Object[] replies = failures.await(sent, action, deadline);
        for (Object reply : replies) {
            if (GlideFailures.isErrorReply(reply)) {
                throw failures.ofCall((Throwable) reply, action);
            }
        }
        return new Replicated(GlideReplies.normalize(action, replies[0]), (Long) replies[1]);
    }

    /**
     * One non-atomic batch: a single node gets it as one pipeline; on a cluster GLIDE splits it by
     * node and sends the parts at once. Errors come back in place ({@code raiseOnError} false), so
     * one call's miss does not cost the others their replies.
     */
    @Override
    public List<Object> runAll(List<FunctionCall> calls) {
        Objects.requireNonNull(calls, "calls");
        if (calls.isEmpty()) {
            return List.of();
        }
        String action = calls.size() + " pipelined functions";
        long deadline = failures.deadline();
        BaseClient glide = client(action, deadline);
        Object[] replies = failures.await(exec(glide, calls), action, deadline);
        List<Object> results = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            FunctionCall call = calls.get(i);
            String callAction = "function " + call.function().name();
            Object reply = replies[i];
            if (GlideFailures.isErrorReply(reply)) {
                RuntimeException failure = failures.ofCall((Throwable) reply, callAction);
                if (!(failure instanceof MissingFunctionException)) {
                    throw failure;
                }
                // The node lost the library; the call never ran, so make it again on its own,
                // which loads the library first.
                results.add(run(call));
            } else {
                results.add(GlideReplies.normalize(callAction, reply));
            }
        }
        return Collections.unmodifiableList(results);
    }

    private CompletableFuture<Object[]> exec(BaseClient glide, List<FunctionCall> calls) {
        try {
            if (glide instanceof GlideClusterClient clusterClient) {
                return clusterClient.exec(add(new ClusterBatch(false), calls), false);
            }
            return ((GlideClient) glide).exec(add(new Batch(false), calls), false);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static <B extends BaseBatch<B>> B add(B batch, List<FunctionCall> calls) {
        for (FunctionCall call : calls) {
            String[] keys = call.keys().toArray(String[]::new);
            String[] args = call.args().toArray(String[]::new);
            if (call.function().readOnly()) {
                batch.fcallReadOnly(call.function().name(), keys, args);
            } else {
                batch.fcall(call.function().name(), keys, args);
            }
        }
        return batch;
    }

    @Override
    public List<String> primaries() {
        if (!cluster) {
            checkOpen("the primaries");
            return List.of(failures.endpoint());
        }
        String[] map = readSlots("the primaries");
        Set<String> primaries = new LinkedHashSet<>();
        for (String node : map) {
            if (node != null) {
                primaries.add(node);
            }
        }
        return List.copyOf(primaries);
    }

    @Override
    public Object onNode(String node, List<String> command) {
        String action = command.getFirst() + " on " + node;
        long deadline = failures.deadline();
        BaseClient glide = client(action, deadline);
        String[] args = command.toArray(String[]::new);
        CompletableFuture<Object> reply;
        try {
            if (glide instanceof GlideClusterClient clusterClient) {
                int colon = node.lastIndexOf(':');
                reply = clusterClient.customCommand(args,
                                new ByAddressRoute(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1))))
                        .thenApply(value -> value.getSingleValue());
            } else {
                reply = ((GlideClient) glide).customCommand(args);
            }
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return GlideReplies.normalize(action, failures.awaitCall(reply, action, deadline));
    }

    @Override
    public String nodeOf(String key) {
        if (!cluster) {
            checkOpen("the node of " + key);
            return failures.endpoint();
        }
        String node = slots[HashSlot.of(key)];
        return node != null ? node : currentNodeOf(key);
    }

    @Override
    public String currentNodeOf(String key) {
        if (!cluster) {
            return nodeOf(key);
        }
        int slot = HashSlot.of(key);
        String node = readSlots("the node of " + key)[slot];
        if (node == null) {
            throw new StoreUnavailableException(
                    "no node of the cluster at " + failures.endpoint() + " is known to serve the slot of " + key, null);
        }
        return node;
    }

    /** Reads the slot map afresh with CLUSTER SLOTS from any node, and keeps it for {@link #nodeOf}. */
    private String[] readSlots(String action) {
        long deadline = failures.deadline();
        GlideClusterClient glide = (GlideClusterClient) client(action, deadline);
        CompletableFuture<Object> reply;
        try {
            reply = glide.customCommand(new String[] {"CLUSTER", "SLOTS"}, SimpleSingleNodeRoute.RANDOM)
                    .thenApply(value -> value.getSingleValue());
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        Object ranges = GlideReplies.normalize("CLUSTER SLOTS", failures.await(reply, action, deadline));
        String[] map = new String[HashSlot.SLOTS];
        for (Object range : (List<?>) ranges) {
            List<?> fields = (List<?>) range;
            List<?> primary = (List<?>) fields.get(2);
            String node = primary.get(0) + ":" + primary.get(1);
            for (int slot = ((Long) fields.get(0)).intValue(); slot <= ((Long) fields.get(1)).intValue(); slot++) {
                map[slot] = node;
            }
        }
        slots = map;
        return map;
    }

    @Override
    public void publish(String channel, String payload, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(payload, "payload");
        boolean spublish = sharded && cluster;
        String action = (spublish ? "SPUBLISH to " : "PUBLISH to ") + channel;
        long deadline = failures.deadline();
        BaseClient glide = client(action, deadline);
        CompletableFuture<String> sent;
        try {
            // GLIDE takes the message first, then the channel.
            sent = glide instanceof GlideClusterClient clusterClient
                    ? clusterClient.publish(payload, channel, spublish)
                    : glide.publish(payload, channel);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        failures.await(sent, action, deadline);
    }

    @Override
    public boolean isCluster() {
        return cluster;
    }

    @Override
    public PubSubConnection openPubSub(PubSubListener listener) {
        return pubSubs.open(onClose -> GlidePubSub.open(settings, failures, listener, onClose),
                () -> failures.closed("a pub/sub connection"));
    }

    /**
     * Asks again until the deadline when the answer is no: a client that is reconnecting fails
     * requests, and one that comes back within the time has answered within it. On a cluster
     * every primary must answer, since without one part of the data cannot be reached.
     */
    @Override
    public boolean ping() {
        return pingPatience.answered(failures.endpoint(), closed::get, deadline -> {
            BaseClient glide = client("PING", deadline);
            CompletableFuture<String> pong = glide instanceof GlideClusterClient clusterClient
                    ? clusterClient.ping(SimpleMultiNodeRoute.ALL_PRIMARIES)
                    : ((GlideClient) glide).ping();
            return "PONG".equalsIgnoreCase(failures.await(pong, "PING", deadline));
        });
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        pubSubs.closeAll();
        CompletableFuture<? extends BaseClient> last;
        synchronized (connecting) {
            last = client;
            client = null;
        }
        if (last != null) {
            // One still being made is closed once it is.
            last.thenAccept(GlideDriver::closeQuietly);
        }
    }

    static void closeQuietly(BaseClient glide) {
        try {
            glide.close();
        } catch (Exception e) {
            LOG.debug("closing a GLIDE client did not finish cleanly", e);
        }
    }

    /** The client, making one if the last attempt failed; unavailability if none is made in time. */
    private BaseClient client(String action, long deadline) {
        checkOpen(action);
        CompletableFuture<? extends BaseClient> current;
        synchronized (connecting) {
            if (client == null || client.isCompletedExceptionally()) {
                client = GlideSetup.connect(settings, null);
            }
            current = client;
        }
        BaseClient glide = failures.await(current, action, deadline);
        checkOpen(action);
        return glide;
    }

    private void checkOpen(String action) {
        if (closed.get()) {
            throw failures.closed(action);
        }
    }
}
