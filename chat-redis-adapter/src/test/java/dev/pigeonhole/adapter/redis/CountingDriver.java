package dev.pigeonhole.adapter.redis;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the round trips the adapter asks its driver for: one per {@link #run}, {@link #publish}
 * or {@link #ping}, one per non-empty {@link #runAll}, however many scripts it carries. The
 * server's own command statistics confirm the scripts behind each count.
 */
final class CountingDriver extends ForwardingRedisDriver {

    private final AtomicLong roundTrips = new AtomicLong();

    CountingDriver(RedisDriver delegate) {
        super(delegate);
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
    public void publish(String channel, String payload, boolean sharded) {
        roundTrips.incrementAndGet();
        delegate.publish(channel, payload, sharded);
    }

    @Override
    public boolean ping() {
        roundTrips.incrementAndGet();
        return delegate.ping();
    }
}
