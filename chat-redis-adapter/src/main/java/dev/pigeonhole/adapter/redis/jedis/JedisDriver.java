package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.FunctionLibrary;
import dev.pigeonhole.adapter.redis.MissingFunctionException;
import dev.pigeonhole.adapter.redis.OpenSubscriptions;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.FunctionCall;
import dev.pigeonhole.adapter.redis.Replicated;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@link RedisDriver} on Jedis: a pooled {@link RedisClient} for a single node, a
 * {@link redis.clients.jedis.RedisClusterClient} for a cluster, and one dedicated connection (or,
 * on a cluster, one per node involved) for each {@link PubSubConnection}.
 */
public final class JedisDriver implements RedisDriver {

    private static final Logger LOG = LoggerFactory.getLogger(JedisDriver.class);

    /** A redirection means the command did not run, so it is safe to repeat; a few suffice for a resharding. */
    private static final int REDIRECTION_RETRIES = 3;

    private final RedisSettings settings;
    private final JedisClientConfig clientConfig;
    private final JedisFailures failures;
    private final RedisClient single;
    private final HostAndPort singleNode;
    private final ClusterHandle cluster;
    private final OpenSubscriptions<JedisSubscription> subscriptions = new OpenSubscriptions<>();
    private volatile boolean closed;

    public JedisDriver(RedisSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clientConfig = JedisSetup.clientConfig(settings);
        this.failures = new JedisFailures(new RedisFailures(settings));
        switch (settings.endpoint()) {
            case RedisSettings.Single endpoint -> {
                this.singleNode = JedisSetup.hostAndPort(endpoint);
                this.single = RedisClient.builder()
                        .hostAndPort(singleNode)
                        .clientConfig(clientConfig)
                        .poolConfig(JedisSetup.poolConfig(settings))
                        .build();
                this.cluster = null;
            }
            case RedisSettings.Cluster endpoint -> {
                this.singleNode = null;
                this.single = null;
                this.cluster = new ClusterHandle(JedisSetup.seeds(endpoint), clientConfig, JedisSetup.poolConfig(settings));
                cluster.warmUp();
            }
        }
    }

    @Override
    public Object run(FunctionCall call) {
        Objects.requireNonNull(call, "call");
        return FunctionLibrary.loadingOnMiss(this, call, () -> callOnce(call));
    }

    private Object callOnce(FunctionCall call) {
        String name = call.function().name();
        String action = "function " + name;
        UnifiedJedis client = client(action);
        Object reply;
        try {
            reply = followingRedirections(() -> call.function().readOnly()
                    ? client.fcallReadonly(name, call.keys(), call.args())
                    : client.fcall(name, call.keys(), call.args()));
        } catch (RuntimeException e) {
            throw callFailure(action, e);
        }
        return Replies.normalize(action, reply);
    }

    /**
     * Repeats an action the cluster redirected: a redirection proves the command did not run,
     * and Jedis, held to one attempt, has already refreshed its slot map when it reports one.
     */
    private <T> T followingRedirections(Supplier<T> action) {
        for (int attempt = 0; ; attempt++) {
            try {
                return action.get();
            } catch (RuntimeException e) {
                if (cluster == null || attempt >= REDIRECTION_RETRIES || !JedisFailures.isRedirection(e)) {
                    throw e;
                }
            }
        }
    }

    @Override
    public Replicated runReplicated(FunctionCall call, int replicas, Duration timeout) {
        Objects.requireNonNull(call, "call");
        return FunctionLibrary.loadingOnMiss(this, call, () -> replicatedOnce(call, replicas, timeout));
    }

    /**
     * The call and its WAIT pipelined on one connection borrowed from the pool (on a cluster, from
     * the pool of the node that owns the call's slot), which WAIT needs: it counts the replicas
     * that hold its own connection's writes.
     */
    private Replicated replicatedOnce(FunctionCall call, int replicas, Duration timeout) {
        String name = call.function().name();
        String action = "function " + name + " and WAIT";
        for (int attempt = 0; ; attempt++) {
            if (closed) {
                throw failures.closed(action);
            }
            try (Connection connection = single != null
                    ? single.getPool().getResource()
                    : cluster.connectionTo(owner(call.routingKey()).toString())) {
                Pipeline pipeline = new Pipeline(connection);
                Response<Object> reply = pipeline.fcall(name, call.keys(), call.args());
                Response<Long> acknowledged = pipeline.waitReplicas(replicas, timeout.toMillis());
                pipeline.sync();
                return new Replicated(Replies.normalize(action, reply.get()), acknowledged.get());
            } catch (RuntimeException e) {
                if (cluster != null && attempt < REDIRECTION_RETRIES && JedisFailures.isRedirection(e)) {
                    // The slot moved: the call did not run. Read the slot map again and ask its new owner.
                    cluster.refresh();
                    continue;
                }
                throw callFailure(action, e);
            }
        }
    }

    @Override
    public List<Object> runAll(List<FunctionCall> calls) {
        Objects.requireNonNull(calls, "calls");
        if (calls.isEmpty()) {
            return List.of();
        }
        UnifiedJedis client = client(calls.size() + " pipelined functions");
        int count = calls.size();
        Object[] replies = new Object[count];
        pipeline(cluster != null ? cluster::pipelined : client::pipelined, calls, replies);

        List<Object> results = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Object reply = replies[i];
            if (reply instanceof RuntimeException e && (cluster != null && JedisFailures.isRedirection(e)
                    || callFailure("function " + calls.get(i).function().name(), e) instanceof MissingFunctionException)) {
                // The slot moved while the pipeline was built, or the node lost the library; the
                // call never ran, so make it again on its own, which follows the redirection or
                // loads the library.
                results.add(run(calls.get(i)));
                continue;
            }
            if (reply instanceof RuntimeException e) {
                throw callFailure("function " + calls.get(i).function().name(), e);
            }
            results.add(Replies.normalize("function " + calls.get(i).function().name(), reply));
        }
        return Collections.unmodifiableList(results);
    }

    @Override
    public String nodeOf(String key) {
        return cluster == null ? singleNode.toString() : owner(key).toString();
    }

    @Override
    public String currentNodeOf(String key) {
        if (cluster == null) {
            return singleNode.toString();
        }
        cluster.refresh();
        return owner(key).toString();
    }

    private HostAndPort owner(String key) {
        try {
            return cluster.ownerOf(key);
        } catch (JedisException e) {
            throw failures.unavailable("the node of " + key, e);
        }
    }

    /**
     * Sends the calls in one pipeline and stores each reply, or the error reply Redis gave for
     * it, at the call's index. A failure of the connection itself fails the whole batch.
     */
    private void pipeline(Supplier<AbstractPipeline> pipelines, List<FunctionCall> calls, Object[] replies) {
        List<Response<Object>> responses = new ArrayList<>(calls.size());
        try (AbstractPipeline pipeline = pipelines.get()) {
            for (FunctionCall call : calls) {
                String name = call.function().name();
                responses.add(call.function().readOnly()
                        ? pipeline.fcallReadonly(name, call.keys(), call.args())
                        : pipeline.fcall(name, call.keys(), call.args()));
            }
            pipeline.sync();
            for (int i = 0; i < calls.size(); i++) {
                try {
                    replies[i] = responses.get(i).get();
                } catch (JedisDataException e) {
                    replies[i] = e;
                }
            }
        } catch (JedisException e) {
            afterFailure(e);
            throw failures.unavailable(calls.size() + " pipelined functions", e);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Redis pipeline of " + calls.size() + " functions failed unexpectedly", e);
        }
    }

    @Override
    public List<String> primaries() {
        if (cluster == null) {
            return List.of(singleNode.toString());
        }
        try {
            return cluster.primaries();
        } catch (JedisException e) {
            throw failures.unavailable("the cluster's primaries", e);
        }
    }

    @Override
    public Object onNode(String node, List<String> command) {
        String what = command.getFirst() + " on " + node;
        if (closed) {
            throw failures.closed(what);
        }
        Protocol.Command name = Protocol.Command.valueOf(command.getFirst());
        String[] arguments = command.subList(1, command.size()).toArray(String[]::new);
        Object reply;
        try {
            reply = cluster == null
                    ? single.sendCommand(name, arguments)
                    : cluster.onPrimary(node, new CommandArguments(name).addObjects((Object[]) arguments));
        } catch (RuntimeException e) {
            throw callFailure(what, e);
        }
        return Replies.normalize(what, reply);
    }

    @Override
    public void publish(String channel, String payload, boolean sharded) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(payload, "payload");
        boolean shardedHere = sharded && cluster != null;
        String what = (shardedHere ? "SPUBLISH to " : "PUBLISH to ") + channel;
        UnifiedJedis client = client(what);
        try {
            followingRedirections(() -> shardedHere
                    ? cluster.client().spublish(channel, payload)
                    : client.publish(channel, payload));
        } catch (JedisException e) {
            afterFailure(e);
            throw failures.unavailable(what, e);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Redis " + what + " failed unexpectedly", e);
        }
    }

    @Override
    public boolean isCluster() {
        return cluster != null;
    }

    @Override
    public PubSubConnection openPubSub(PubSubListener listener) {
        Objects.requireNonNull(listener, "listener");
        return subscriptions.open(onClose -> new JedisSubscription(listener, clientConfig, settings, singleNode, cluster,
                failures, onClose), () -> failures.closed("a pub/sub connection"));
    }

    @Override
    public boolean ping() {
        if (closed) {
            return false;
        }
        try {
            return cluster != null ? cluster.pingAll() : "PONG".equalsIgnoreCase(single.ping());
        } catch (RuntimeException e) {
            LOG.debug("PING to {} failed: {}", failures.endpoint(), e.toString());
            if (e instanceof JedisException) {
                afterFailure(e);
            }
            return false;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        subscriptions.closeAll();
        try {
            if (single != null) {
                single.close();
            }
            if (cluster != null) {
                cluster.close();
            }
        } catch (RuntimeException e) {
            LOG.debug("closing the Jedis client for {} failed: {}", failures.endpoint(), e.toString());
        }
    }

    private UnifiedJedis client(String what) {
        if (closed) {
            throw failures.closed(what);
        }
        if (single != null) {
            return single;
        }
        try {
            return cluster.client();
        } catch (JedisException e) {
            throw failures.unavailable(what, e);
        }
    }

    private RuntimeException callFailure(String name, RuntimeException e) {
        if (e instanceof JedisException jedis) {
            afterFailure(jedis);
            if (closed) {
                return failures.closed(name);
            }
            return failures.ofCall(name, jedis);
        }
        if (e instanceof StoreUnavailableException || e instanceof IllegalStateException) {
            return e;
        }
        return new IllegalStateException("Redis " + name + " failed unexpectedly", e);
    }

    /** After a dead connection, the idle ones beside it are likely dead too: let new ones replace them. */
    private void afterFailure(Throwable e) {
        if (!JedisFailures.isConnectionProblem(e)) {
            return;
        }
        try {
            if (single != null) {
                single.getPool().clear();
            } else {
                cluster.discardIdle();
            }
        } catch (RuntimeException ignored) {
            // Best effort: the pool replaces a broken connection on its own when it is returned.
        }
    }
}
