package dev.pigeonhole.adapter.redis.redisson;

import dev.pigeonhole.adapter.redis.FunctionCall;
import dev.pigeonhole.adapter.redis.FunctionLibrary;
import dev.pigeonhole.adapter.redis.MissingFunctionException;
import dev.pigeonhole.adapter.redis.OpenSubscriptions;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.Replicated;
import org.redisson.Redisson;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.FunctionMode;
import org.redisson.api.FunctionResult;
import org.redisson.api.RBatch;
import org.redisson.api.RFunctionAsync;
import org.redisson.api.RFuture;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.command.CommandAsyncExecutor;
import org.redisson.connection.ConnectionManager;
import org.redisson.connection.MasterSlaveEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@link RedisDriver} on Redisson: one {@link RedissonClient}, single server or cluster, whose
 * pool of Netty connections per node carries the calls, and a {@link RedissonPubSub} of its own
 * connections for each subscription.
 *
 * <p>Function calls go through Redisson's function API ({@code RFunction.callAsync}, FCALL or
 * FCALL_RO), whose object reply keeps Redis's shapes; a batch is an {@link RBatch} sent in memory,
 * one pipeline per node, all in flight at once. What the public API cannot say (a command to one
 * named node, the slot map) goes through Redisson's command executor and connection manager.
 *
 * <p>Redisson retries nothing here (see {@link RedissonSetup}): a call that timed out may have
 * run, and only the adapter knows which calls may be repeated.
 */
public final class RedissonDriver implements RedisDriver {

    private static final Logger LOG = LoggerFactory.getLogger(RedissonDriver.class);

    private final RedisSettings settings;
    private final RedissonFailures failures;
    private final RedissonHandle handle;
    private final OpenSubscriptions<RedissonPubSub> pubSubs = new OpenSubscriptions<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    public RedissonDriver(RedisSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        // Waiting longer than Redisson's own timeouts only matters when they cannot apply (a
        // connection attempt before the command); a second command's time is kept as slack.
        this.failures = new RedissonFailures(new RedisFailures(settings),
                settings.connectTimeout().plus(settings.commandTimeout().multipliedBy(2)));
        this.handle = new RedissonHandle(() -> RedissonSetup.config(settings), settings.commandTimeout().toMillis());
        warmUp();
    }

    /** Tries to reach Redis now; a failure is only logged, since calls will try again. */
    private void warmUp() {
        try {
            handle.get();
        } catch (RuntimeException e) {
            LOG.warn("{}; calls will retry", failures.translate(e, "the first connection").getMessage());
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
        return Replies.plain(action, failures.awaitCall(send(client(action).functions(), call), action, deadline));
    }

    @Override
    public Replicated runReplicated(FunctionCall call, int replicas, Duration timeout) {
        Objects.requireNonNull(call, "call");
        return FunctionLibrary.loadingOnMiss(this, call, () -> replicatedOnce(call, replicas, timeout));
    }

    /**
     * A batch of the one call, which Redisson, asked to sync replicas, follows with WAIT on the
     * connection the batch ran on; the result says how many replicas acknowledged.
     */
    private Replicated replicatedOnce(FunctionCall call, int replicas, Duration timeout) {
        String action = "function " + call.function().name() + " and WAIT";
        long deadline = failures.deadline() + timeout.toNanos();
        RBatch batch = client(action).redisson().createBatch(BatchOptions.defaults()
                .executionMode(BatchOptions.ExecutionMode.IN_MEMORY)
                .retryAttempts(0)
                .responseTimeout(settings.commandTimeout().plus(timeout).toMillis(), TimeUnit.MILLISECONDS)
                .sync(replicas, timeout));
        CompletableFuture<Object> reply = send(batch.getFunction(StringCodec.INSTANCE), call);
        CompletableFuture<? extends BatchResult<?>> sent;
        try {
            sent = batch.executeAsync().toCompletableFuture();
        } catch (RuntimeException e) {
            throw failures.translate(e, action);
        }
        BatchResult<?> result = failures.awaitCall(sent, action, deadline);
        return new Replicated(Replies.plain(action, failures.awaitCall(reply, action, deadline)), result.getSyncedSlaves());
    }

    @Override
    public List<Object> runAll(List<FunctionCall> calls) {
        Objects.requireNonNull(calls, "calls");
        if (calls.isEmpty()) {
            return List.of();
        }
        long deadline = failures.deadline();
        RBatch batch = client(calls.size() + " pipelined functions").redisson().createBatch(BatchOptions.defaults()
                .executionMode(BatchOptions.ExecutionMode.IN_MEMORY)
                .retryAttempts(0)
                .responseTimeout(settings.commandTimeout().toMillis(), TimeUnit.MILLISECONDS));
        RFunctionAsync batched = batch.getFunction(StringCodec.INSTANCE);
        List<CompletableFuture<Object>> pending = new ArrayList<>(calls.size());
        for (FunctionCall call : calls) {
            pending.add(send(batched, call));
        }
        CompletableFuture<?> sent;
        try {
            sent = batch.executeAsync().toCompletableFuture();
        } catch (RuntimeException e) {
            throw failures.translate(e, calls.size() + " pipelined functions");
        }
        // A call's error reply fails the batch, and Redisson then leaves some calls' own futures
        // unanswered (a NOREPLICAS, say): such a call fails with the batch.
        Throwable batchFailure = failures.failureOf(sent, deadline);
        List<Object> replies = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            String action = "function " + calls.get(i).function().name();
            CompletableFuture<Object> reply = pending.get(i);
            boolean answered = reply.isDone() || batchFailure == null;
            if (!answered) {
                reply = CompletableFuture.failedFuture(batchFailure);
            }
            try {
                replies.add(Replies.plain(action, failures.awaitCall(reply, action, deadline)));
            } catch (MissingFunctionException e) {
                if (!answered) {
                    // Another call's miss: whether this one ran is unknown, so it is not made again.
                    throw failures.unavailable(action, Trouble.UNREACHABLE, "no answer of its own in a batch that failed");
                }
                // The node lost the library; the call never ran, so make it again on its own,
                // which loads the library first.
                replies.add(run(calls.get(i)));
            }
        }
        return Collections.unmodifiableList(replies);
    }

    @Override
    public List<String> primaries() {
        return masters("the primaries").stream().map(RedissonDriver::name).toList();
    }

    @Override
    public Object onNode(String node, List<String> command) {
        String action = command.getFirst() + " on " + node;
        MasterSlaveEntry entry = masters(action).stream().filter(master -> name(master).equals(node)).findFirst()
                .orElseThrow(() -> failures.unavailable(action, Trouble.UNREACHABLE, "no such primary is known"));
        CompletableFuture<Object> reply;
        try {
            RFuture<Object> sent = client(action).executor().writeAsync(entry, StringCodec.INSTANCE, Replies.command(command.getFirst()),
                    command.subList(1, command.size()).toArray());
            reply = sent.toCompletableFuture();
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return Replies.plain(action, failures.awaitCall(reply, action, failures.deadline()));
    }

    @Override
    public String nodeOf(String key) {
        String action = "the node of " + key;
        if (!isCluster()) {
            return name(masters(action).getFirst());
        }
        ConnectionManager manager = client(action).connectionManager();
        MasterSlaveEntry entry = manager.getWriteEntry(manager.calcSlot(key));
        if (entry == null) {
            throw failures.unavailable("the node of " + key, Trouble.UNREACHABLE, "no node is known to serve its slot");
        }
        return name(entry);
    }

    /**
     * Redisson reads the slot map on its own schedule only, so the slot's owner is asked of the
     * cluster itself ({@code CLUSTER SLOTS}, on the node Redisson names for the key).
     */
    @Override
    public String currentNodeOf(String key) {
        String known = nodeOf(key);
        if (!isCluster()) {
            return known;
        }
        int slot = client("the node of " + key).connectionManager().calcSlot(key);
        Object slots = onNode(known, List.of("CLUSTER", "SLOTS"));
        return Replies.ownerOf(slots, slot).orElse(known);
    }

    @Override
    public void publish(String channel, String payload, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(payload, "payload");
        boolean spublish = sharded && isCluster();
        String action = (spublish ? "SPUBLISH to " : "PUBLISH to ") + channel;
        Redisson redisson = client(action).redisson();
        CompletableFuture<Long> sent;
        try {
            sent = (spublish ? redisson.getShardedTopic(channel, StringCodec.INSTANCE).publishAsync(payload)
                    : redisson.getTopic(channel, StringCodec.INSTANCE).publishAsync(payload)).toCompletableFuture();
        } catch (RuntimeException e) {
            throw failures.translate(e, action);
        }
        failures.await(sent, action, failures.deadline());
    }

    @Override
    public boolean isCluster() {
        return settings.endpoint() instanceof RedisSettings.Cluster;
    }

    @Override
    public PubSubConnection openPubSub(PubSubListener listener) {
        String action = "a pub/sub connection";
        return pubSubs.open(onClose -> RedissonPubSub.open(this, client(action).executor().getServiceManager(), failures,
                listener, onClose), () -> failures.closed(action));
    }

    /** True when every primary answered PING within the timeouts. */
    @Override
    public boolean ping() {
        if (closed.get()) {
            return false;
        }
        try {
            long deadline = failures.deadline();
            List<MasterSlaveEntry> masters = masters("PING");
            CommandAsyncExecutor executor = client("PING").executor();
            List<CompletableFuture<String>> pongs = new ArrayList<>();
            for (MasterSlaveEntry master : masters) {
                RFuture<String> pong = executor.writeAsync(master, StringCodec.INSTANCE, RedisCommands.PING);
                pongs.add(pong.toCompletableFuture());
            }
            for (CompletableFuture<String> pong : pongs) {
                if (!"PONG".equalsIgnoreCase(failures.await(pong, "PING", deadline))) {
                    return false;
                }
            }
            return !masters.isEmpty();
        } catch (RuntimeException e) {
            LOG.debug("PING to {} failed", failures.endpoint(), e);
            return false;
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        pubSubs.closeAll();
        handle.close();
    }

    /** Every primary Redisson knows. */
    private List<MasterSlaveEntry> masters(String action) {
        List<MasterSlaveEntry> masters = List.copyOf(client(action).connectionManager().getEntrySet());
        if (masters.isEmpty()) {
            throw failures.unavailable(action, Trouble.UNREACHABLE, "no primary is known");
        }
        return masters;
    }

    /** The started client; {@link dev.pigeonhole.domain.model.StoreUnavailableException} if it cannot start. */
    private RedissonHandle.Established client(String action) {
        checkOpen(action);
        try {
            return handle.get();
        } catch (RuntimeException e) {
            if (closed.get()) {
                throw failures.closed(action);
            }
            throw failures.translate(e, action);
        }
    }

    /** The name of a primary, host:port, as {@link #primaries()} and {@link #nodeOf} give it. */
    static String name(MasterSlaveEntry entry) {
        InetSocketAddress address = entry.getClient().getAddr();
        return address.getHostString() + ":" + address.getPort();
    }

    private void checkOpen(String action) {
        if (closed.get()) {
            throw failures.closed(action);
        }
    }

    /** FCALL, or FCALL_RO for a function registered {@code no-writes}; routed by the first key. */
    private static CompletableFuture<Object> send(RFunctionAsync functions, FunctionCall call) {
        try {
            RFuture<Object> reply = functions.callAsync(call.function().readOnly() ? FunctionMode.READ : FunctionMode.WRITE,
                    call.function().name(), FunctionResult.VALUE, List.<Object>copyOf(call.keys()), call.args().toArray());
            return reply.toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    boolean isOpen() {
        return !closed.get();
    }
}
