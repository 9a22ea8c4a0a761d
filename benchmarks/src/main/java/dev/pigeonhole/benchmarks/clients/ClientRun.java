package dev.pigeonhole.benchmarks.clients;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.app.AppConfig;
import dev.pigeonhole.app.Pigeonhole;
import dev.pigeonhole.benchmarks.Backend;
import dev.pigeonhole.benchmarks.PendingReader;
import dev.pigeonhole.benchmarks.load.SendSchedule;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * One client's system, built through the composition root as the server builds it (the
 * benchmarks' {@link Backend#config()}, with a client name of its own so that its connections
 * can be counted), and the measures the comparison takes of it. Every send goes into one chat
 * with the same command, as in {@code SendBenchmark}: the client's cost, not the command's.
 */
final class ClientRun implements AutoCloseable {

    private final String clientName;
    private final Pigeonhole system;
    private final SendMessage sendMessage;
    private final SendMessage.Command command;
    private final List<PendingReader> readers = new ArrayList<>();

    private ClientRun(String clientName, Pigeonhole system) {
        this.clientName = clientName;
        this.system = system;
        this.sendMessage = system.sendMessage();
        UserId alice = UserId.of("alice");
        ChatId chat = system.createChat().create(new CreateChat.Command(alice, Set.of(UserId.of("bob")),
                Optional.empty(), "hello")).chat();
        this.command = new SendMessage.Command(chat, alice, "a message of about the length people type");
    }

    /** Starts the system of {@code client} on the single node, named apart from every other instance. */
    static ClientRun start(RedisClientKind client) {
        String name = "bench-" + client.name().toLowerCase(Locale.ROOT) + "-" + UUID.randomUUID().toString().substring(0, 8);
        AppConfig config = Backend.onSingleNode(client).config();
        config = config.withRedis(config.redis().withClientName(name));
        return new ClientRun(name, Pigeonhole.start(config, InstantSource.system()));
    }

    String clientName() {
        return clientName;
    }

    /** Gives {@code count} readers {@code chats} chats each, for {@link #pending}: caller i reads as reader i. */
    void prepareReaders(int count, int chats) {
        for (int i = readers.size(); i < count; i++) {
            readers.add(new PendingReader(system, UserId.of("reader-" + i), chats));
        }
    }

    /** {@code callers} callers sending for {@code duration}, each send timed whole. */
    Callers.Done send(int callers, Duration duration) throws Exception {
        return Callers.run(callers, duration, caller -> {
            long start = System.nanoTime();
            sendMessage.send(command);
            return System.nanoTime() - start;
        });
    }

    /**
     * {@code callers} readers catching up for {@code duration}: each sends one message into each
     * of its K chats, untimed, then fetches and acknowledges, timed.
     */
    Callers.Done pending(int callers, Duration duration) throws Exception {
        if (callers > readers.size()) {
            throw new IllegalStateException(callers + " callers but " + readers.size() + " readers prepared");
        }
        return Callers.run(callers, duration, caller -> {
            PendingReader reader = readers.get(caller);
            reader.oneNewMessagePerChat();
            long start = System.nanoTime();
            reader.fetchAndAcknowledge();
            return System.nanoTime() - start;
        });
    }

    /** Send latency at a fixed offered rate, and how late the sends started. */
    record Latency(Histogram micros, double lateStartPercent) {
    }

    /**
     * Sends offered at {@code perSecond}, each on a virtual thread of its own as the server's
     * requests are, each timed from when it was due ({@link SendSchedule}): a send that waited
     * behind a slow one carries its wait. The warm-up's sends are paced but not recorded.
     */
    Latency latency(int perSecond, Duration warmup, Duration measured) {
        long warmupSends = Math.max(1, perSecond * warmup.toMillis() / 1000);
        long total = warmupSends + Math.max(1, perSecond * measured.toMillis() / 1000);
        SendSchedule schedule = new SendSchedule(System.nanoTime() + 1_000_000, 1_000_000_000L / perSecond,
                warmupSends, total);
        AtomicInteger failed = new AtomicInteger();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            schedule.pace(System::nanoTime, LockSupport::parkNanos, seq -> threads.execute(() -> {
                schedule.started(seq, System.nanoTime());
                try {
                    sendMessage.send(command);
                    schedule.arrived(seq, System.nanoTime(), 1);
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                }
            }));
        }
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " of " + total + " sends failed at " + perSecond + "/s");
        }
        Histogram lag = schedule.startLag();
        double late = lag.getTotalCount() == 0 ? 0
                : 100.0 * (lag.getTotalCount() - lag.getCountBetweenValues(0, 1000)) / lag.getTotalCount();
        return new Latency(schedule.latency(), late);
    }

    /** The process's CPU over a closed-loop send run, and the instance's connections midway through it. */
    record Busy(double cpuMicrosPerOp, int connections, Callers.Done done) {
    }

    Busy busy(int callers, Duration duration, Connections connections) throws Exception {
        AtomicInteger counted = new AtomicInteger(-1);
        Thread counter = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(duration.dividedBy(2));
                counted.set(connections.named(clientName));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long cpuBefore = processCpuNanos();
        Callers.Done done = send(callers, duration);
        long cpu = processCpuNanos() - cpuBefore;
        counter.join();
        return new Busy(cpu / 1000.0 / done.operations(), counted.get(), done);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    @Override
    public void close() throws Exception {
        system.close();
    }
}
