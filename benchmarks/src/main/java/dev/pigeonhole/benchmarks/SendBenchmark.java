package dev.pigeonhole.benchmarks;

import dev.pigeonhole.app.Pigeonhole;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.time.InstantSource;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One message into one chat, the hot path of the whole system. Every thread sends into the same
 * chat, because contention on one chat is what the book's lock serialised and the send function
 * is meant to make cheap; on PostgreSQL every send waits for that chat's row lock in turn.
 * Retention stays at its default, so once a run passes it every send also trims, as it would in
 * production.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class SendBenchmark {

    /** How many sends {@link #sendVirtual64} has in flight at once. */
    static final int VIRTUAL_SENDERS = 64;

    @Param({"IN_MEMORY", "JEDIS", "LETTUCE", "POSTGRES"})
    public Backend backend;

    private Pigeonhole system;
    private SendMessage sendMessage;
    private SendMessage.Command command;
    private ExecutorService virtualThreads;

    @Setup(Level.Trial)
    public void start() {
        system = Pigeonhole.start(backend.config(), InstantSource.system());
        UserId alice = UserId.of("alice");
        ChatId chat = system.createChat().create(new CreateChat.Command(alice, Set.of(UserId.of("bob")),
                Optional.empty(), "hello")).chat();
        sendMessage = system.sendMessage();
        // One command for every send: building it is the caller's cost, not the system's.
        command = new SendMessage.Command(chat, alice, "a message of about the length people type");
        virtualThreads = Executors.newVirtualThreadPerTaskExecutor();
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        virtualThreads.close();
        system.close();
    }

    @Benchmark
    @Threads(1)
    public Message send() {
        return sendMessage.send(command);
    }

    @Benchmark
    @Threads(8)
    public Message send8() {
        return sendMessage.send(command);
    }

    /**
     * Many virtual threads at once, as a server handling one request per virtual thread has them.
     * With Lettuce they all share one multiplexed connection, so this shows whether pipelining
     * across callers pays; Jedis lends each a pooled connection instead, and so does PostgreSQL,
     * whose pool of 16 leaves most of the 64 waiting for one. Per-op time is the batch's time over
     * its size, so it reads as throughput, not as one send's latency.
     */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(VIRTUAL_SENDERS)
    public long sendVirtual64() throws Exception {
        @SuppressWarnings("unchecked")
        Future<Message>[] sends = new Future[VIRTUAL_SENDERS];
        for (int i = 0; i < VIRTUAL_SENDERS; i++) {
            sends[i] = virtualThreads.submit(() -> sendMessage.send(command));
        }
        long last = 0;
        for (Future<Message> send : sends) {
            last = Math.max(last, send.get().id());
        }
        return last;
    }
}
