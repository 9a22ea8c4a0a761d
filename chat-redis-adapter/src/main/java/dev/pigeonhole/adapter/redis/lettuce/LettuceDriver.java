package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.FunctionLibrary;
import dev.pigeonhole.adapter.redis.MissingFunctionException;
import dev.pigeonhole.adapter.redis.PingPatience;
import dev.pigeonhole.adapter.redis.OpenSubscriptions;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.FunctionCall;
import dev.pigeonhole.adapter.redis.Replicated;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@link RedisDriver} on Lettuce: {@code RedisClient} for a single node,
 * {@code RedisClusterClient} for a cluster.
 *
 * <p>Every command of every thread goes over one shared connection (on a cluster, one per master
 * behind one logical connection). Lettuce writes concurrent callers' commands as they come and
 * matches the replies in order, so concurrent calls pipeline by themselves; {@link #runAll} only
 * has to issue its calls before it waits for any of them.
 *
 * <p>Timeouts: the connect timeout bounds each connection attempt, the command timeout each
 * command (Lettuce cancels it then). While a connection is down, commands are refused at once
 * rather than queued, so an outage surfaces as a {@link StoreUnavailableException} without
 * waiting; Lettuce reconnects in the background.
 */
public final class LettuceDriver implements RedisDriver {


    /** A redirection means the command did not run, so it is safe to repeat; a few suffice for a resharding. */
    private static final int REDIRECTION_RETRIES = 3;

    private final Connector<?> connector;
    private final LettuceFailures failures;
    private final PingPatience pingPatience;
    private final OpenSubscriptions<LettucePubSub> pubSubs = new OpenSubscriptions<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    public LettuceDriver(RedisSettings settings) {
        this(settings, null);
    }

    /**
     * As above, with Lettuce's command latencies recorded into {@code metrics} (see
     * {@link Connector}); the driver counts nothing itself.
     */
    public LettuceDriver(RedisSettings settings, MeterRegistry metrics) {
        Objects.requireNonNull(settings, "settings");
        this.connector = Connector.of(settings, metrics);
        // Waiting longer than Lettuce's own timeouts only matters when they cannot apply (a connect
        // attempt stuck behind another); a second command's time is kept as slack.
        this.failures = new LettuceFailures(new RedisFailures(settings),
                settings.connectTimeout().plus(settings.commandTimeout().multipliedBy(2)));
        this.pingPatience = new PingPatience(settings);
        // Connect in the background so the first call finds the connection ready; if this attempt
        // fails, the first call makes another.
        connector.connection();
    }

    @Override
    public Object run(FunctionCall call) {
        Objects.requireNonNull(call, "call");
        return FunctionLibrary.loadingOnMiss(this, call, () -> callOnce(call));
    }

    private Object callOnce(FunctionCall call) {
        long deadline = failures.deadline();
        BaseRedisAsyncCommands<String, String> commands = commands("function " + call.function().name(), deadline);
        return failures.awaitCall(send(commands, call), "function " + call.function().name(), deadline);
    }

    @Override
    public Replicated runReplicated(FunctionCall call, int replicas, Duration timeout) {
        Objects.requireNonNull(call, "call");
        return FunctionLibrary.loadingOnMiss(this, call, () -> replicatedOnce(call, replicas, timeout));
    }

    /**
     * The call and its WAIT written one after the other on one connection: the shared one on a
     * single node; on a cluster, the connection to the node that owns the call's slot, since a
     * keyless WAIT is not routed. Down a node's own connection Lettuce does not follow MOVED (a
     * failover or a slot move since it last read the slot map), so the driver reads the map again
     * and asks the new owner: the call did not run. The wait for the replicas comes on top of the
     * command's own time.
     */
    private Replicated replicatedOnce(FunctionCall call, int replicas, Duration timeout) {
        String action = "function " + call.function().name() + " and WAIT";
        long deadline = failures.deadline() + timeout.toNanos();
        for (int attempt = 0; ; attempt++) {
            BaseRedisAsyncCommands<String, String> commands = connector.isCluster()
                    ? failures.await(connector.commandsOn(nodeOf(call.routingKey())), action, deadline)
                    : commands(action, deadline);
            CompletableFuture<Object> reply = send(commands, call);
            CompletableFuture<Object> acknowledged;
            try {
                acknowledged = commands.dispatch(CommandType.WAIT, new ReplyOutput(), new CommandArgs<>(StringCodec.UTF8)
                        .add(replicas).add(timeout.toMillis())).toCompletableFuture();
            } catch (RuntimeException e) {
                acknowledged = CompletableFuture.failedFuture(e);
            }
            Object value;
            try {
                value = failures.awaitCall(reply, action, deadline);
            } catch (StoreUnavailableException e) {
                if (connector.isCluster() && attempt < REDIRECTION_RETRIES && LettuceFailures.isRedirection(e)) {
                    failures.await(connector.refresh(), "the cluster's slot map", deadline);
                    continue;
                }
                throw e;
            }
            return new Replicated(value, (Long) failures.awaitCall(acknowledged, action, deadline));
        }
    }

    @Override
    public List<Object> runAll(List<FunctionCall> calls) {
        Objects.requireNonNull(calls, "calls");
        if (calls.isEmpty()) {
            return List.of();
        }
        long deadline = failures.deadline();
        BaseRedisAsyncCommands<String, String> commands = commands(calls.size() + " pipelined functions", deadline);
        List<CompletableFuture<Object>> pending = new ArrayList<>(calls.size());
        for (FunctionCall call : calls) {
            pending.add(send(commands, call));
        }
        List<Object> replies = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            try {
                replies.add(failures.awaitCall(pending.get(i), "function " + calls.get(i).function().name(), deadline));
            } catch (MissingFunctionException e) {
                // The node lost the library; the call never ran, so make it again on its own,
                // which loads the library first.
                replies.add(run(calls.get(i)));
            }
        }
        return Collections.unmodifiableList(replies);
    }

    @Override
    public List<String> primaries() {
        checkOpen("the primaries");
        return failures.await(connector.primaries(), "the primaries", failures.deadline());
    }

    @Override
    public Object onNode(String node, List<String> command) {
        String what = command.getFirst() + " on " + node;
        checkOpen(what);
        long deadline = failures.deadline();
        BaseRedisAsyncCommands<String, String> commands = failures.await(connector.commandsOn(node), what, deadline);
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
        command.subList(1, command.size()).forEach(args::add);
        CompletableFuture<Object> reply;
        try {
            reply = commands.dispatch(CommandType.valueOf(command.getFirst()), new ReplyOutput(), args).toCompletableFuture();
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return failures.awaitCall(reply, what, deadline);
    }

    @Override
    public String nodeOf(String key) {
        checkOpen("the node of " + key);
        return connector.nodeOf(failures, key, failures.deadline()).orElseThrow(() -> new StoreUnavailableException(
                "no node of the cluster at " + connector.endpoint() + " is known to serve the slot of " + key, null));
    }

    @Override
    public String currentNodeOf(String key) {
        checkOpen("the node of " + key);
        long deadline = failures.deadline();
        failures.await(connector.refresh(), "the cluster's slot map", deadline);
        return connector.nodeOf(failures, key, deadline).orElseThrow(() -> new StoreUnavailableException(
                "no node of the cluster at " + connector.endpoint() + " is known to serve the slot of " + key, null));
    }

    @Override
    public void publish(String channel, String payload, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(payload, "payload");
        boolean spublish = sharded && connector.isCluster();
        String action = (spublish ? "SPUBLISH to " : "PUBLISH to ") + channel;
        long deadline = failures.deadline();
        BaseRedisAsyncCommands<String, String> commands = commands(action, deadline);
        CompletableFuture<Long> sent;
        try {
            sent = (spublish ? commands.spublish(channel, payload) : commands.publish(channel, payload)).toCompletableFuture();
        } catch (RuntimeException e) {
            throw failures.translate(e, action);
        }
        failures.await(sent, action, deadline);
    }

    @Override
    public boolean isCluster() {
        return connector.isCluster();
    }

    @Override
    public PubSubConnection openPubSub(PubSubListener listener) {
        return pubSubs.open(onClose -> LettucePubSub.open(connector, failures, listener, onClose),
                () -> failures.closed("a pub/sub connection"));
    }

    /**
     * Asks again until the deadline when the answer is no: a connection Lettuce is reconnecting
     * refuses commands at once, and one that comes back within the timeout has answered within it.
     * The deadline leaves room for one connection attempt and one PING.
     */
    @Override
    public boolean ping() {
        return pingPatience.answered(connector.endpoint(), closed::get,
                deadline -> Boolean.TRUE.equals(failures.await(connector.ping(), "PING", deadline)));
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        pubSubs.closeAll();
        connector.shutdown();
    }

    private BaseRedisAsyncCommands<String, String> commands(String action, long deadline) {
        checkOpen(action);
        return connector.commands(failures, action, deadline);
    }

    private void checkOpen(String action) {
        if (closed.get()) {
            throw failures.closed(action);
        }
    }

    /**
     * FCALL or FCALL_RO. The keys go in as keys, so that a cluster routes the command by the first
     * one; every key of a call shares its slot by construction.
     */
    private static CompletableFuture<Object> send(BaseRedisAsyncCommands<String, String> commands, FunctionCall call) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8)
                .add(call.function().name())
                .add(call.keys().size())
                .addKeys(call.keys())
                .addValues(call.args());
        try {
            return commands.dispatch(call.function().readOnly() ? CommandType.FCALL_RO : CommandType.FCALL,
                    new ReplyOutput(), args).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
