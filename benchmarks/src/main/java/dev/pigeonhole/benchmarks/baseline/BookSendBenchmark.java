package dev.pigeonhole.benchmarks.baseline;

import dev.pigeonhole.book.BookChat;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * The book's send_message ({@link BookChat}), the figure SendBenchmark is measured against. All
 * threads send into one chat, as in SendBenchmark: the book's lock is per chat, so that is where
 * it serialises.
 * Like the book it never trims, so the chat's sorted set grows through the run; ZADD on it is
 * O(log n), which keeps that from mattering at benchmark lengths.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class BookSendBenchmark {

    private static final String CHAT_ID = "1";

    /** One key prefix per trial, shared by every sender so that they all send into one chat. */
    private String prefix;

    @Setup(Level.Trial)
    public void start() {
        prefix = RawRedis.prefix();
    }

    /** The book's conn: one connection per caller, since WATCH belongs to a connection. */
    @State(Scope.Thread)
    public static class Sender {
        BookChat book;

        @Setup(Level.Trial)
        public void open(BookSendBenchmark benchmark) {
            book = new BookChat(RawRedis.connection(), benchmark.prefix);
        }

        @TearDown(Level.Trial)
        public void close() {
            book.close();
        }
    }

    @Benchmark
    @Threads(1)
    public long send(Sender sender) {
        return sender.book.sendMessage(CHAT_ID, "alice", "a message of about the length people type");
    }

    @Benchmark
    @Threads(8)
    public long send8(Sender sender) {
        return sender.book.sendMessage(CHAT_ID, "alice", "a message of about the length people type");
    }
}
