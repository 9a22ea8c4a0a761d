package dev.pigeonhole.adapter.redis;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real driver, except that a user index's remove can be held back until the test lets it go:
 * a leave's second step arriving late, after whatever the test does in between.
 */
final class LateIndexRemoves implements RedisDriver {

    private final RedisDriver delegate;
    private final AtomicInteger removesSeen = new AtomicInteger();
    private volatile CountDownLatch held = new CountDownLatch(0);
    private volatile CountDownLatch release = new CountDownLatch(0);

    LateIndexRemoves(RedisDriver delegate) {
        this.delegate = delegate;
    }

    /** The next index remove waits, once it has arrived, until {@link #letGo()}. */
    void holdTheNext() {
        held = new CountDownLatch(1);
        release = new CountDownLatch(1);
    }

    /** Waits until an index remove is being held. */
    void awaitHeld() throws InterruptedException {
        if (!held.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("no index remove arrived");
        }
    }

    void letGo() {
        release.countDown();
    }

    int removesSeen() {
        return removesSeen.get();
    }

    @Override
    public Object run(FunctionCall call) {
        if (call.function() == Functions.INDEX_REMOVE) {
            removesSeen.incrementAndGet();
            CountDownLatch arrived = held;
            if (arrived.getCount() > 0) {
                arrived.countDown();
                try {
                    if (!release.await(10, TimeUnit.SECONDS)) {
                        throw new AssertionError("the held index remove was never let go");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        return delegate.run(call);
    }

    @Override
    public List<Object> runAll(List<FunctionCall> calls) {
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
