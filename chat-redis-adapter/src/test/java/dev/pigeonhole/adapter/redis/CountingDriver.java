package dev.pigeonhole.adapter.redis;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the round trips the adapter asks its driver for: one per {@link #run}, {@link #publish}
 * or {@link #ping}, one per non-empty {@link #runAll}, however many scripts it carries. The
 * server's own command statistics confirm the scripts behind each count.
 */
final class CountingDriver implements RedisDriver {

    private final RedisDriver delegate;
    private final AtomicLong roundTrips = new AtomicLong();

    CountingDriver(RedisDriver delegate) {
        this.delegate = delegate;
    }

    long roundTrips() {
        return roundTrips.get();
    }

    @Override
    public Object run(FunctionCall call) {
        roundTrips.incrementAndGet();
        return delegate.run(call);
    }

    @Override
    public List<Object> runAll(List<FunctionCall> calls) {
        if (!calls.isEmpty()) {
            roundTrips.incrementAndGet();
        }
        return delegate.runAll(calls);
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
        roundTrips.incrementAndGet();
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
        roundTrips.incrementAndGet();
        return delegate.ping();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
