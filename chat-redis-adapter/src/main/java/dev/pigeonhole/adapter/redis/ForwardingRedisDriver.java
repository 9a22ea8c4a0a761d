package dev.pigeonhole.adapter.redis;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A driver that hands every call to another: the base of a decorator that watches or disturbs
 * what a driver does (counting round trips, holding a call back, recording calls to replay them),
 * which then overrides only what it is about.
 */
public abstract class ForwardingRedisDriver implements RedisDriver {

    protected final RedisDriver delegate;

    protected ForwardingRedisDriver(RedisDriver delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public Object run(FunctionCall call) {
        return delegate.run(call);
    }

    @Override
    public List<Object> runAll(List<FunctionCall> calls) {
        return delegate.runAll(calls);
    }

    @Override
    public Replicated runReplicated(FunctionCall call, int replicas, Duration timeout) {
        return delegate.runReplicated(call, replicas, timeout);
    }

    @Override
    public List<String> primaries() {
        return delegate.primaries();
    }

    @Override
    public Object onNode(String node, List<String> command) {
        return delegate.onNode(node, command);
    }

    @Override
    public String nodeOf(String key) {
        return delegate.nodeOf(key);
    }

    @Override
    public String currentNodeOf(String key) {
        return delegate.currentNodeOf(key);
    }

    @Override
    public void publish(String channel, String payload, boolean sharded) {
        delegate.publish(channel, payload, sharded);
    }

    @Override
    public boolean isCluster() {
        return delegate.isCluster();
    }

    @Override
    public PubSubConnection openPubSub(PubSubListener listener) {
        return delegate.openPubSub(listener);
    }

    @Override
    public boolean ping() {
        return delegate.ping();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
