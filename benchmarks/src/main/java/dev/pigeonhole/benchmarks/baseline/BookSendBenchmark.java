package dev.pigeonhole.benchmarks.baseline;

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
import redis.clients.jedis.Jedis;

/**
 * The book's send_message, the figure SendBenchmark is measured against. All threads send into
 * one chat, as in SendBenchmark: the book's lock is per chat, so that is where it serialises.
 * Like the book it never trims, so the chat's sorted set grows through the run; ZADD on it is
 * O(log n), which keeps that from mattering at benchmark lengths.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class BookSendBenchmark {

    private BookChat book;
    private final String chatId = "1";

    @Setup(Level.Trial)
    public void start() {
        book = new BookChat(RawRedis.prefix());
    }

    /** The book's conn: one connection per caller, since WATCH belongs to a connection. */
    @State(Scope.Thread)
    public static class Connection {
        Jedis conn;

        @Setup(Level.Trial)
        public void open() {
            conn = RawRedis.connection();
        }

        @TearDown(Level.Trial)
        public void close() {
            conn.close();
        }
    }

    @Benchmark
    @Threads(1)
    public long send(Connection connection) {
        return book.sendMessage(connection.conn, chatId, "alice", "a message of about the length people type");
    }

    @Benchmark
    @Threads(8)
    public long send8(Connection connection) {
        return book.sendMessage(connection.conn, chatId, "alice", "a message of about the length people type");
    }
}
