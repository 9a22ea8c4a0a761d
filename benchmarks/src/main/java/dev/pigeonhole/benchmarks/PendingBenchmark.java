package dev.pigeonhole.benchmarks;

import dev.pigeonhole.app.Pigeonhole;
import dev.pigeonhole.domain.model.UserId;
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
 * A reader in K chats, each with one message it has not seen: fetch what is pending, then
 * acknowledge every chat up to its last message in one batch ({@link PendingReader}). That is what a
 * client does each time it catches up, and the book's fetch_pending_messages does both in one call.
 *
 * <p>The new messages are sent in a {@link Level#Invocation} setup so that their cost stays out
 * of the measurement. JMH warns that per-invocation fixtures distort results when the op is
 * very short, since timestamps are taken around each call; the op here costs at least one round
 * trip to Redis (tens of microseconds), where that distortion is small, but on IN_MEMORY with
 * K = 1 read the figure as an upper bound. For the same reason this runs on one thread only.
 *
 * <p>Their time stays out, but not their memory: {@code -prof gc} counts what every thread
 * allocated over the whole iteration, setups included, so its {@code gc.alloc.rate.norm} holds
 * the K sends too (on Redis at K = 100, about 850 kB of it, 8 to 9 kB a send).
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Threads(1)
public class PendingBenchmark {

    @Param({"IN_MEMORY", "JEDIS", "LETTUCE", "POSTGRES"})
    public Backend backend;

    @Param({"1", "10", "100"})
    public int chats;

    private static final UserId READER = UserId.of("reader");

    private Pigeonhole system;
    private PendingReader reader;

    @Setup(Level.Trial)
    public void start() {
        system = Pigeonhole.start(backend.config(), InstantSource.system());
        // Start from "nothing pending", so each op sees exactly the one message the setup adds.
        reader = new PendingReader(system, READER, chats);
    }

    @Setup(Level.Invocation)
    public void oneNewMessagePerChat() {
        reader.oneNewMessagePerChat();
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        system.close();
    }

    @Benchmark
    public int pendingAndAcknowledge() {
        return reader.fetchAndAcknowledge();
    }
}
