package dev.pigeonhole.benchmarks;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.service.live.LocalSubscription;
import dev.pigeonhole.domain.service.live.SubscriptionMultiplexer;
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

import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One event reaching N local subscribers of one chat through the multiplexer: the part of live
 * push that grows with the audience, with no Redis in the way (the upstream is in-memory
 * pub/sub, which hands the event over on a dispatcher thread as a Redis client would).
 * Draining every queue is part of the op, so the cost includes waking that thread and the N
 * queue hand-offs, not only the publish call.
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Threads(1)
public class FanOutBenchmark {

    /** Read as the services read it: to the millisecond, as every store keeps a time. */
    private static final InstantSource CLOCK = MillisecondClock.of(Clock.systemUTC());

    /** Long enough that only a lost event could hit it; then the op fails instead of lying. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @Param({"1", "100", "1000"})
    public int subscribers;

    private InMemoryChannels channels;
    private SubscriptionMultiplexer multiplexer;
    private final List<LocalSubscription> subscriptions = new ArrayList<>();
    private Channel channel;
    private LiveEvent event;

    @Setup(Level.Trial)
    public void start() {
        channels = new InMemoryChannels();
        multiplexer = new SubscriptionMultiplexer(channels, SubscriptionMultiplexer.DEFAULT_QUEUE_CAPACITY);
        ChatId chat = ChatId.of("fan-out");
        channel = Channel.ofChat(chat);
        for (int i = 0; i < subscribers; i++) {
            subscriptions.add(multiplexer.subscribe(List.of(channel)));
        }
        event = new LiveEvent.MessagePosted(chat, new Message(1, CLOCK.instant(), UserId.of("alice"), "hi"));
    }

    @TearDown(Level.Trial)
    public void stop() {
        subscriptions.forEach(LocalSubscription::close);
        multiplexer.close();
    }

    @Benchmark
    public int publishAndDrain() throws InterruptedException {
        channels.publish(channel, event);
        int received = 0;
        for (LocalSubscription subscription : subscriptions) {
            Optional<LiveSignal> signal = subscription.next(PATIENCE);
            if (!(signal.orElse(null) instanceof LiveSignal.Event)) {
                throw new IllegalStateException("subscriber got " + signal + " instead of the event");
            }
            received++;
        }
        return received;
    }
}
