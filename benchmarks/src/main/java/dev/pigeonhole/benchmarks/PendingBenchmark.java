package dev.pigeonhole.benchmarks;

import dev.pigeonhole.app.Pigeonhole;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.consent.ChooseAddPolicy;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A reader in K chats, each with one message it has not seen: fetch what is pending, then
 * acknowledge every chat up to its last message in one batch. That is what a client does each
 * time it catches up, and the book's fetch_pending_messages does both in one call.
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
    private static final UserId WRITER = UserId.of("writer");

    private Pigeonhole system;
    private FetchPending fetchPending;
    private AcknowledgeMessages acknowledge;
    private SendMessage sendMessage;
    private final List<SendMessage.Command> nextMessages = new ArrayList<>();
    private FetchPending.Query query;

    @Setup(Level.Trial)
    public void start() {
        system = Pigeonhole.start(backend.config(), InstantSource.system());
        fetchPending = system.fetchPending();
        acknowledge = system.acknowledgeMessages();
        sendMessage = system.sendMessage();
        query = new FetchPending.Query(READER);
        // By default a stranger's add is only an invitation: the reader lets the writer add it.
        system.chooseAddPolicy().choose(new ChooseAddPolicy.Command(READER, AddPolicy.ANYONE));
        for (int i = 0; i < chats; i++) {
            ChatId chat = system.createChat().create(new CreateChat.Command(WRITER, Set.of(READER),
                    Optional.empty(), "first")).chat();
            nextMessages.add(new SendMessage.Command(chat, WRITER, "one more message"));
        }
        // Start from "nothing pending", so each op sees exactly the one message the setup adds.
        // Every chat's first message is pending now: a reader who sees fewer is no member of them
        // (an invitee, say), and the op would time an empty fetch.
        int seen = fetchAndAcknowledge();
        if (seen != chats) {
            throw new IllegalStateException("the reader has " + seen + " messages pending in its " + chats
                    + " chats, not one in each: is it a member of them?");
        }
    }

    @Setup(Level.Invocation)
    public void oneNewMessagePerChat() {
        for (SendMessage.Command command : nextMessages) {
            sendMessage.send(command);
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        system.close();
    }

    @Benchmark
    public int pendingAndAcknowledge() {
        return fetchAndAcknowledge();
    }

    /** What a client does: fetch, then acknowledge every chat that had news, in one batch. */
    private int fetchAndAcknowledge() {
        int seen = 0;
        Map<ChatId, Long> upTo = new HashMap<>();
        for (PendingChat pending : fetchPending.pending(query)) {
            if (pending.messages().isEmpty()) {
                continue;
            }
            upTo.put(pending.chat(), pending.messages().getLast().id());
            seen += pending.messages().size();
        }
        if (!upTo.isEmpty()) {
            acknowledge.acknowledge(new AcknowledgeMessages.Batch(READER, upTo));
        }
        return seen;
    }
}
