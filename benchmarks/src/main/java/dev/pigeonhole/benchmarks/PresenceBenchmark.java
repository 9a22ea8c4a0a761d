package dev.pigeonhole.benchmarks;

import dev.pigeonhole.app.Pigeonhole;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.presence.TouchPresence;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

/**
 * A presence heartbeat: every connected client sends one periodically, so its cost times the
 * number of clients is a standing load. The same user each time is the common case (already
 * online), which only moves a score and announces nothing.
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Threads(1)
public class PresenceBenchmark {

    @Param({"IN_MEMORY", "JEDIS", "LETTUCE", "POSTGRES"})
    public Backend backend;

    private Pigeonhole system;
    private TouchPresence touchPresence;
    private final UserId user = UserId.of("heartbeat");

    @Setup(Level.Trial)
    public void start() {
        system = Pigeonhole.start(backend.config(), InstantSource.system());
        touchPresence = system.touchPresence();
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        system.close();
    }

    @Benchmark
    public void touch() {
        touchPresence.touch(user);
    }
}
