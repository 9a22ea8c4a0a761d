package dev.pigeonhole.benchmarks.floors;

import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.FunctionCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The adapter's driver with a note of every call it runs, so that the floors replay exactly what
 * production sends: the adapter's classes run unchanged above it, and the driver below it runs
 * each call as it always does. One caller at a time, as the benchmark drives it.
 */
final class RecordingDriver implements RedisDriver {

    private final RedisDriver driver;
    private List<Call> calls = new ArrayList<>();

    RecordingDriver(RedisDriver driver) {
        this.driver = Objects.requireNonNull(driver, "driver");
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
        return driver.run(call);
    }

    @Override
    public List<Object> runAll(List<FunctionCall> batch) {
        batch.forEach(call -> calls.add(FunctionCommands.captured(call)));
        return driver.runAll(batch);
    }

    @Override
    public List<String> primaries() {
        return driver.primaries();
    }

    @Override
    public Object onNode(String node, List<String> command) {
        return driver.onNode(node, command);
    }

    @Override
    public String nodeOf(String key) {
        return driver.nodeOf(key);
    }

    @Override
    public String currentNodeOf(String key) {
        return driver.currentNodeOf(key);
    }

    @Override
    public void publish(String channel, String payload, boolean sharded) {
        driver.publish(channel, payload, sharded);
    }

    @Override
    public boolean isCluster() {
        return driver.isCluster();
    }

    @Override
    public PubSubConnection openPubSub(PubSubListener listener) {
        return driver.openPubSub(listener);
    }

    @Override
    public boolean ping() {
        return driver.ping();
    }

    @Override
    public void close() {
        driver.close();
    }
}
