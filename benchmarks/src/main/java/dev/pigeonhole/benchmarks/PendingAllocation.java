package dev.pigeonhole.benchmarks;

import com.sun.management.ThreadMXBean;
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
import java.lang.management.ManagementFactory;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What pending + batch acknowledge allocates on the Java side, and nothing else: PendingBenchmark's
 * {@code -prof gc} figure counts what every thread allocated over the iteration, so it holds the
 * K sends its per-invocation setup makes as well (on Redis at K = 100, more than half of it). This
 * reads the same counter JMH's profiler reads, the bytes every thread of the JVM has allocated
 * ({@link ThreadMXBean#getTotalThreadAllocatedBytes()}), around the fetch and the acknowledgement
 * alone, the client's own threads included.
 *
 * <pre>
 * REDIS_URL=redis://127.0.0.1:6379 java -cp benchmarks/target/benchmarks.jar \
 *     dev.pigeonhole.benchmarks.PendingAllocation JEDIS 100 400
 * </pre>
 * prints, per operation over the second half of the rounds (the first half warms up), the bytes
 * the sends, the fetch and the acknowledgement allocated.
 */
public final class PendingAllocation {

    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final UserId READER = UserId.of("reader");
    private static final UserId WRITER = UserId.of("writer");

    private PendingAllocation() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: PendingAllocation <backend: IN_MEMORY|JEDIS|LETTUCE|...> <chats> <rounds>");
            System.exit(2);
        }
        Backend backend = Backend.valueOf(args[0]);
        int chats = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        try (Pigeonhole system = Pigeonhole.start(backend.config(), InstantSource.system())) {
            system.chooseAddPolicy().choose(new ChooseAddPolicy.Command(READER, AddPolicy.ANYONE));
            List<SendMessage.Command> next = new ArrayList<>();
            for (int i = 0; i < chats; i++) {
                ChatId chat = system.createChat().create(new CreateChat.Command(WRITER, Set.of(READER),
                        Optional.empty(), "first")).chat();
                next.add(new SendMessage.Command(chat, WRITER, "one more message"));
            }
            FetchPending.Query query = new FetchPending.Query(READER);
            long sends = 0;
            long pending = 0;
            long acknowledging = 0;
            int measured = 0;
            for (int round = 0; round < rounds; round++) {
                long start = THREADS.getTotalThreadAllocatedBytes();
                next.forEach(system.sendMessage()::send);
                long sent = THREADS.getTotalThreadAllocatedBytes();
                List<PendingChat> news = system.fetchPending().pending(query);
                long fetched = THREADS.getTotalThreadAllocatedBytes();
                Map<ChatId, Long> upTo = new HashMap<>();
                for (PendingChat chat : news) {
                    if (!chat.messages().isEmpty()) {
                        upTo.put(chat.chat(), chat.messages().getLast().id());
                    }
                }
                if (upTo.size() != chats) {
                    throw new IllegalStateException("round " + round + " found news in " + upTo.size() + " chats, not "
                            + chats);
                }
                long beforeAcknowledging = THREADS.getTotalThreadAllocatedBytes();
                system.acknowledgeMessages().acknowledge(new AcknowledgeMessages.Batch(READER, upTo));
                long acknowledged = THREADS.getTotalThreadAllocatedBytes();
                if (round >= rounds / 2) {
                    sends += sent - start;
                    pending += fetched - sent;
                    acknowledging += acknowledged - beforeAcknowledging;
                    measured++;
                }
            }
            System.out.printf("%s, K = %d, %d rounds measured: bytes per operation: the %d sends %,d; pending %,d; "
                            + "acknowledge %,d; pending + acknowledge %,d%n", backend, chats, measured, chats,
                    sends / measured, pending / measured, acknowledging / measured,
                    (pending + acknowledging) / measured);
        }
    }
}
