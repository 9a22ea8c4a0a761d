package dev.pigeonhole.benchmarks;

import dev.pigeonhole.app.Pigeonhole;
import dev.pigeonhole.domain.model.DirectMessage;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.TakeDirectMessages;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

/**
 * A direct message delivered and taken again. Pairing the two keeps the mailbox at a constant
 * depth, so the run measures the round trips and not a list that grows until it is full.
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Threads(1)
public class MailboxBenchmark {

    @Param({"IN_MEMORY", "JEDIS", "LETTUCE"})
    public Backend backend;

    private Pigeonhole system;
    private DeliverDirectMessage deliver;
    private TakeDirectMessages take;
    private DeliverDirectMessage.Command delivery;
    private TakeDirectMessages.Command taking;

    @Setup(Level.Trial)
    public void start() {
        system = Pigeonhole.start(backend.config(), InstantSource.system());
        deliver = system.deliverDirectMessage();
        take = system.takeDirectMessages();
        UserId recipient = UserId.of("recipient");
        delivery = new DeliverDirectMessage.Command(UserId.of("sender"), recipient, "a direct message");
        taking = new TakeDirectMessages.Command(recipient, 1);
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        system.close();
    }

    @Benchmark
    public List<DirectMessage> deliverAndTake() {
        deliver.deliver(delivery);
        List<DirectMessage> taken = take.take(taking);
        if (taken.size() != 1) {
            throw new IllegalStateException("took " + taken.size() + " messages, not the one just delivered");
        }
        return taken;
    }
}
