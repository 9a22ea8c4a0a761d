package dev.pigeonhole.benchmarks.floors;

import dev.pigeonhole.adapter.redis.ForwardingRedisDriver;
import dev.pigeonhole.adapter.redis.FunctionCall;
import dev.pigeonhole.adapter.redis.RedisDriver;
import java.util.ArrayList;
import java.util.List;

/**
 * The adapter's driver with a note of every call it runs, so that the floors replay exactly what
 * production sends: the adapter's classes run unchanged above it, and the driver below it runs
 * each call as it always does. One caller at a time, as the benchmark drives it.
 */
final class RecordingDriver extends ForwardingRedisDriver {

    private List<Call> calls = new ArrayList<>();

    RecordingDriver(RedisDriver driver) {
        super(driver);
    }

    /** The calls since the last take, in the order they ran. */
    List<Call> take() {
        List<Call> taken = calls;
        calls = new ArrayList<>();
        return taken;
    }

    @Override
    public Object run(FunctionCall call) {
        calls.add(FunctionCommands.captured(call));
        return delegate.run(call);
    }

    @Override
    public List<Object> runAll(List<FunctionCall> batch) {
        batch.forEach(call -> calls.add(FunctionCommands.captured(call)));
        return delegate.runAll(batch);
    }
}
