package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.ScriptCall;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
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

    private static final Logger LOG = LoggerFactory.getLogger(LettuceDriver.class);
    private static final Duration PING_PAUSE = Duration.ofMillis(25);

    private final Connector<?> connector;
    private final LettuceFailures failures;
    private final Duration pingPatience;
    private final Set<LettucePubSub> pubSubs = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();

    public LettuceDriver(RedisSettings settings) {
        Objects.requireNonNull(settings, "settings");
        this.connector = Connector.of(settings);
        // Waiting longer than Lettuce's own timeouts only matters when they cannot apply (a connect
        // attempt stuck behind another); two commands fit for the EVALSHA, EVAL fallback.
        this.failures = new LettuceFailures(new RedisFailures(settings),
                settings.connectTimeout().plus(settings.commandTimeout().multipliedBy(2)));
        this.pingPatience = settings.connectTimeout().plus(settings.commandTimeout());
        // Connect in the background so the first call finds the connection ready; if this attempt
        // fails, the first call makes another.
        connector.connection();
    }

    @Override
    public Object run(ScriptCall call) {
        Objects.requireNonNull(call, "call");
        long deadline = failures.deadline();
        BaseRedisAsyncCommands<String, String> commands = commands("script " + call.script().name(), deadline);
        return failures.awaitScript(run(commands, call), call.script().name(), deadline);
    }

    @Override
    public List<Object> runAll(List<ScriptCall> calls) {
        Objects.requireNonNull(calls, "calls");
        if (calls.isEmpty()) {
            return List.of();
        }
        long deadline = failures.deadline();
        BaseRedisAsyncCommands<String, String> commands = commands(calls.size() + " pipelined scripts", deadline);
        List<CompletableFuture<Object>> pending = new ArrayList<>(calls.size());
        for (ScriptCall call : calls) {
            pending.add(run(commands, call));
        }
        List<Object> replies = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            replies.add(failures.awaitScript(pending.get(i), calls.get(i).script().name(), deadline));
        }
        return Collections.unmodifiableList(replies);
    }

    @Override
    public String nodeOf(String key) {
        checkOpen("the node of " + key);
        return connector.nodeOf(failures, key, failures.deadline()).orElseThrow(() -> new StoreUnavailableException(
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
        checkOpen("a pub/sub connection");
        LettucePubSub pubSub = LettucePubSub.open(connector, failures, listener, pubSubs::remove);
        pubSubs.add(pubSub);
        if (closed.get()) {
            // close() ran while this one was opening and could not see it
            pubSub.close();
            checkOpen("a pub/sub connection");
        }
        return pubSub;
    }

    /**
     * Asks again until the deadline when the answer is no: a connection Lettuce is reconnecting
     * refuses commands at once, and one that comes back within the timeout has answered within it.
     * The deadline leaves room for one connection attempt and one PING.
     */
    @Override
    public boolean ping() {
        long deadline = System.nanoTime() + pingPatience.toNanos();
        while (!closed.get()) {
            try {
                if (Boolean.TRUE.equals(failures.await(connector.ping(), "PING", deadline))) {
                    return true;
                }
            } catch (RuntimeException e) {
                LOG.debug("PING to {} failed", connector.endpoint(), e);
            }
            if (deadline - System.nanoTime() < PING_PAUSE.toNanos()) {
                return false;
            }
            try {
                Thread.sleep(PING_PAUSE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (LettucePubSub pubSub : List.copyOf(pubSubs)) {
            pubSub.close();
        }
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

    /** EVALSHA, then EVAL if the server does not have the script yet (EVAL also caches it). */
    private CompletableFuture<Object> run(BaseRedisAsyncCommands<String, String> commands, ScriptCall call) {
        CompletableFuture<Object> evalsha;
        try {
            evalsha = send(commands, CommandType.EVALSHA, call.script().sha1(), call);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return evalsha.exceptionallyCompose(failure -> unwrap(failure) instanceof RedisNoScriptException
                ? send(commands, CommandType.EVAL, call.script().source(), call)
                : CompletableFuture.failedFuture(failure));
    }

    /**
     * Sends the script by digest or by source. The keys go in as keys, so that a cluster routes the
     * command by the first one; every key of a call shares its slot by construction.
     */
    private static CompletableFuture<Object> send(BaseRedisAsyncCommands<String, String> commands, CommandType type,
                                                  String script, ScriptCall call) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8)
                .addValue(script)
                .add(call.keys().size())
                .addKeys(call.keys())
                .addValues(call.args());
        return commands.dispatch(type, new ReplyOutput(), args).toCompletableFuture();
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CompletionException || current instanceof ExecutionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
