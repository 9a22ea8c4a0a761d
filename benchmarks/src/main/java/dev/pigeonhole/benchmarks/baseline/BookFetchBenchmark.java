package dev.pigeonhole.benchmarks.baseline;

import dev.pigeonhole.book.BookChat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * The book's fetch_pending_messages ({@link BookChat#fetchPendingMessages}, listing 6.26) for a
 * reader in K chats with one new message each: PendingBenchmark's baseline, which fetches and
 * acknowledges in one. Round trips: one ZRANGE of seen:, one MULTI..EXEC of every chat's
 * ZRANGEBYSCORE, then two synchronous calls per chat that had news (ZADD chat:, ZRANGE chat:),
 * then one MULTI..EXEC of the seen: updates and trims. Jedis reads the queued replies before it
 * sends EXEC, so each MULTI..EXEC is two: 2K + 5 in all, which the report's round-trip model
 * counts ({@code RoundTripModel}). That per-chat pair is why this grows with K where the
 * adapter's scripts do not.
 *
 * <p>The new messages arrive in a {@link Level#Invocation} setup, kept out of the timing, with
 * the same JMH caveat as PendingBenchmark: per-invocation fixtures add timestamp noise to short
 * ops, small here against several round trips. One thread only, for the same reason.
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Threads(1)
public class BookFetchBenchmark {

    private static final String READER = "reader";
    private static final String WRITER = "writer";

    @Param({"1", "10", "100"})
    public int chats;

    /** The book's conn, which the fixtures below also write through; the book closes it. */
    private Jedis conn;
    private BookChat book;
    private String prefix;
    private final List<String> chatIds = new ArrayList<>();

    @Setup(Level.Trial)
    public void start() {
        conn = RawRedis.connection();
        prefix = RawRedis.prefix();
        book = new BookChat(conn, prefix);
        // The book's create_chat, minus its first message: both members at 0 in chat: and seen:.
        for (int i = 1; i <= chats; i++) {
            String chatId = Integer.toString(i);
            chatIds.add(chatId);
            conn.zadd(prefix + "chat:" + chatId, 0, READER);
            conn.zadd(prefix + "chat:" + chatId, 0, WRITER);
            conn.zadd(prefix + "seen:" + READER, 0, chatId);
            conn.zadd(prefix + "seen:" + WRITER, 0, chatId);
        }
    }

    /**
     * The message the op will find, written with a plain INCR and ZADD: one thread means the
     * book's lock would guard nothing, and its cost belongs to BookSendBenchmark, not here.
     */
    @Setup(Level.Invocation)
    public void oneNewMessagePerChat() {
        Pipeline pipeline = conn.pipelined();
        List<Response<Long>> ids = new ArrayList<>(chats);
        for (String chatId : chatIds) {
            ids.add(pipeline.incr(prefix + "ids:" + chatId));
        }
        pipeline.sync();
        for (int i = 0; i < chats; i++) {
            long id = ids.get(i).get();
            pipeline.zadd(prefix + "msgs:" + chatIds.get(i), id, BookChat.packed(id, WRITER, "one more message"));
        }
        pipeline.sync();
        pipeline.close();
    }

    @TearDown(Level.Trial)
    public void stop() {
        book.close();
    }

    @Benchmark
    public Map<String, List<String>> fetchPendingMessages() {
        return book.fetchPendingMessages(READER);
    }
}
