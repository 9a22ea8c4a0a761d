package dev.pigeonhole.benchmarks;

import dev.pigeonhole.app.Pigeonhole;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many callers on one process's Redis client at once, as a server that runs each request on a
 * virtual thread has them: {@code callers} virtual threads send through the {@link SendMessage}
 * use case of one system, together, until the invocation's {@value #MESSAGES} messages are sent.
 * The score is messages sent per second, whatever the number of callers.
 *
 * <p>Lettuce puts every caller's script call on its one multiplexed connection, so with many
 * callers the calls should travel pipelined, many per round trip; Jedis lends each caller a
 * connection of its pool instead, and the callers beyond the pool's size wait for one. The
 * yardstick is {@code redis-benchmark -c 50 -P 16} calling the same send function against the same
 * Redis, measured next to this run.
 *
 * <p>Every caller sends into one chat, as in {@link SendBenchmark}: Redis runs scripts one at a
 * time anyway, so spreading the sends over chats would change what the server does, not how
 * well the client keeps it busy. On a cluster that one chat lives on one master.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(1)
public class ManyCallersBenchmark {

    /**
     * Messages per invocation. Every caller starts at once and they share the count, so only the
     * last messages of an invocation are sent by fewer callers than {@code callers}: with 256
     * callers that tail is one message in sixteen.
     */
    static final int MESSAGES = 4096;

    @Param({"JEDIS", "LETTUCE"})
    public Backend backend;

    @Param({"64", "256"})
    public int callers;

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

    /** {@value #MESSAGES} sends by {@code callers} virtual threads; returns how many each sent, summed. */
    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long send() throws Exception {
        AtomicInteger left = new AtomicInteger(MESSAGES);
        List<Future<Long>> running = new ArrayList<>(callers);
        for (int i = 0; i < callers; i++) {
            running.add(virtualThreads.submit(() -> {
                long sent = 0;
                while (left.getAndDecrement() > 0) {
                    sendMessage.send(command);
                    sent++;
                }
                return sent;
            }));
        }
        long sent = 0;
        for (Future<Long> caller : running) {
            // a failed send fails the benchmark, with the send's own exception as the cause
            sent += caller.get();
        }
        return sent;
    }
}
