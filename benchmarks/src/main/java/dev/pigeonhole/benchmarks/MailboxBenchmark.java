package dev.pigeonhole.benchmarks;

import dev.pigeonhole.app.Pigeonhole;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.ReadDirectMessages;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A direct message delivered, read and acknowledged: the owner's whole at-least-once cycle, three
 * round trips on Redis. Acknowledging what was read keeps the mailbox at a constant depth, so the
 * run measures the round trips and not a list that grows until it is full.
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Threads(1)
public class MailboxBenchmark {

    @Param({"IN_MEMORY", "JEDIS", "LETTUCE", "POSTGRES"})
    public Backend backend;

    private Pigeonhole system;
    private DeliverDirectMessage deliver;
    private ReadDirectMessages read;
    private AcknowledgeDirectMessages acknowledge;
    private UserId recipient;
    private DeliverDirectMessage.Command delivery;
    private ReadDirectMessages.Command reading;

    @Setup(Level.Trial)
    public void start() {
        system = Pigeonhole.start(backend.config(), InstantSource.system());
        deliver = system.deliverDirectMessage();
        read = system.readDirectMessages();
        acknowledge = system.acknowledgeDirectMessages();
        recipient = UserId.of("recipient");
        delivery = new DeliverDirectMessage.Command(UserId.of("sender"), recipient, "a direct message");
        reading = new ReadDirectMessages.Command(recipient, 1);
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        system.close();
    }

    @Benchmark
    public List<DirectMessage> deliverReadAndAcknowledge() {
        long id = deliver.deliver(delivery).message().id();
        List<DirectMessage> read = this.read.read(reading);
        if (read.size() != 1 || read.getFirst().id() != id) {
            throw new IllegalStateException("read " + read + ", not the one message just delivered, " + id);
        }
        acknowledge.acknowledge(new AcknowledgeDirectMessages.Command(recipient, id));
        return read;
    }
}
