package dev.pigeonhole.adapter.redis;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real driver, except that a user index's remove can be held back until the test lets it go:
 * a leave's second step arriving late, after whatever the test does in between.
 */
final class LateIndexRemoves extends ForwardingRedisDriver {

    private final AtomicInteger removesSeen = new AtomicInteger();
    private volatile CountDownLatch held = new CountDownLatch(0);
    private volatile CountDownLatch release = new CountDownLatch(0);

    LateIndexRemoves(RedisDriver delegate) {
        super(delegate);
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
}
