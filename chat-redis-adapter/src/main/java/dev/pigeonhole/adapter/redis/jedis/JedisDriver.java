package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.ScriptCall;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
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
    private final Set<JedisSubscription> subscriptions = ConcurrentHashMap.newKeySet();
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
    public Object run(ScriptCall call) {
        Objects.requireNonNull(call, "call");
        String name = call.script().name();
        UnifiedJedis client = client("script " + name);
        Object reply;
        try {
            reply = followingRedirections(() -> evaluate(client, call));
        } catch (RuntimeException e) {
            throw scriptFailure(name, e);
        }
        return Replies.normalize(name, reply);
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

    private static Object evaluate(UnifiedJedis client, ScriptCall call) {
        try {
            return client.evalsha(call.script().sha1(), call.keys(), call.args());
        } catch (JedisDataException e) {
            if (!JedisFailures.isNoScript(e)) {
                throw e;
            }
            return client.eval(call.script().source(), call.keys(), call.args());
        }
    }

    @Override
    public List<Object> runAll(List<ScriptCall> calls) {
        Objects.requireNonNull(calls, "calls");
        if (calls.isEmpty()) {
            return List.of();
        }
        UnifiedJedis client = client(calls.size() + " pipelined scripts");
        int count = calls.size();
        Object[] replies = new Object[count];
        boolean[] all = new boolean[count];
        Arrays.fill(all, true);
        pipelineLoading(client::pipelined, calls, all, replies);

        List<Object> results = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Object reply = replies[i];
            if (reply instanceof RuntimeException e && cluster != null && JedisFailures.isRedirection(e)) {
                // The slot moved while the pipeline was built; the call never ran, so send it
                // again on its own, which follows the redirection.
                reply = run(calls.get(i));
                results.add(reply);
                continue;
            }
            if (reply instanceof RuntimeException e) {
                throw scriptFailure(calls.get(i).script().name(), e);
            }
            results.add(Replies.normalize(calls.get(i).script().name(), reply));
        }
        return Collections.unmodifiableList(results);
    }

    @Override
    public String nodeOf(String key) {
        return cluster == null ? singleNode.toString() : owner(key).toString();
    }

    private HostAndPort owner(String key) {
        try {
            return cluster.ownerOf(key);
        } catch (JedisException e) {
            throw failures.unavailable("the node of " + key, e);
        }
    }

    /**
     * Sends the selected calls in one pipeline, then again with their source those whose script
     * the server did not know (NOSCRIPT): each reply, or the error reply Redis gave for it, lands
     * at the call's index.
     */
    private void pipelineLoading(Supplier<AbstractPipeline> pipelines, List<ScriptCall> calls, boolean[] selected,
                                 Object[] replies) {
        pipeline(pipelines, calls, selected, replies, false);
        boolean[] unknown = new boolean[calls.size()];
        boolean anyUnknown = false;
        for (int i = 0; i < calls.size(); i++) {
            if (selected[i] && replies[i] instanceof JedisDataException e && JedisFailures.isNoScript(e)) {
                unknown[i] = true;
                anyUnknown = true;
            }
        }
        if (anyUnknown) {
            pipeline(pipelines, calls, unknown, replies, true);
        }
    }

    /**
     * Sends the selected calls in one pipeline and stores each reply, or the error reply Redis
     * gave for it, at the call's index. A failure of the connection itself fails the whole batch.
     */
    private void pipeline(Supplier<AbstractPipeline> pipelines, List<ScriptCall> calls, boolean[] selected,
                          Object[] replies, boolean withSource) {
        List<Response<Object>> responses = new ArrayList<>(calls.size());
        try (AbstractPipeline pipeline = pipelines.get()) {
            for (int i = 0; i < calls.size(); i++) {
                ScriptCall call = calls.get(i);
                if (!selected[i]) {
                    responses.add(null);
                } else if (withSource) {
                    responses.add(pipeline.eval(call.script().source(), call.keys(), call.args()));
                } else {
                    responses.add(pipeline.evalsha(call.script().sha1(), call.keys(), call.args()));
                }
            }
            pipeline.sync();
            for (int i = 0; i < calls.size(); i++) {
                if (selected[i]) {
                    try {
                        replies[i] = responses.get(i).get();
                    } catch (JedisDataException e) {
                        replies[i] = e;
                    }
                }
            }
        } catch (JedisException e) {
            afterFailure(e);
            throw failures.unavailable(calls.size() + " pipelined scripts", e);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Redis pipeline of " + calls.size() + " scripts failed unexpectedly", e);
        }
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
        if (closed) {
            throw failures.closed("a pub/sub connection");
        }
        JedisSubscription subscription = new JedisSubscription(listener, clientConfig, settings, singleNode, cluster,
                failures, subscriptions::remove);
        subscriptions.add(subscription);
        if (closed) {
            // close() may have run between the check and the add and missed this one.
            subscription.close();
        }
        return subscription;
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
        for (JedisSubscription subscription : List.copyOf(subscriptions)) {
            subscription.close();
        }
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

    private RuntimeException scriptFailure(String name, RuntimeException e) {
        if (e instanceof JedisException jedis) {
            afterFailure(jedis);
            if (closed) {
                return failures.closed("script " + name);
            }
            return failures.ofScript(name, jedis);
        }
        if (e instanceof StoreUnavailableException || e instanceof IllegalStateException) {
            return e;
        }
        return new IllegalStateException("Redis script " + name + " failed unexpectedly", e);
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
