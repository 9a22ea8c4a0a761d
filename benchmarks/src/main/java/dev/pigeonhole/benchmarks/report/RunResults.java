package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.Backend.IN_MEMORY;
import static dev.pigeonhole.benchmarks.Backend.JEDIS;
import static dev.pigeonhole.benchmarks.Backend.LETTUCE;
import static dev.pigeonhole.benchmarks.Backend.POSTGRES;

import dev.pigeonhole.benchmarks.Backend;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One run's results as read ({@link ResultFiles}), with what could not be read, and the ways the
 * report finds the one result it wants among them.
 */
record RunResults(List<JmhResult> jmh, Optional<RedisBenchmarkResult> evalsha1,
                  Optional<RedisBenchmarkResult> evalsha8, List<LoadRun> loads, List<String> warnings) {

    /** The backends the tables and charts show, in their order. */
    static final List<Backend> SINGLE_NODE = List.of(IN_MEMORY, JEDIS, LETTUCE, POSTGRES);
    /** Those of them that keep the data outside the JVM, which the send chart draws side by side. */
    static final List<Backend> DURABLE = List.of(JEDIS, LETTUCE, POSTGRES);
    /** Those of them that run on Redis, which the targets compare with redis-benchmark and the book. */
    static final List<Backend> ON_REDIS = List.of(JEDIS, LETTUCE);

    Optional<JmhResult> find(String className, Predicate<JmhResult> match) {
        return jmh.stream().filter(b -> b.className().equals(className)).filter(match).findFirst();
    }

    /** Our send: the platform-thread methods, one result per backend and thread count. */
    Optional<JmhResult> send(Backend backend, int threads) {
        return find("SendBenchmark", b -> b.isThroughput() && b.threads() == threads && !b.virtual()
                && b.param("backend").map(backend.name()::equalsIgnoreCase).orElse(false));
    }

    /** A benchmark with one throughput result per backend and no other parameter (mailbox, presence). */
    Optional<JmhResult> of(String className, Backend backend) {
        return find(className, b -> b.isThroughput()
                && b.param("backend").map(backend.name()::equalsIgnoreCase).orElse(false));
    }

    Optional<JmhResult> lettuceVirtual() {
        return find("SendBenchmark", b -> b.isThroughput() && b.virtual()
                && b.param("backend").map(LETTUCE.name()::equalsIgnoreCase).orElse(true));
    }

    Optional<JmhResult> pending(Backend backend, int k) {
        List<JmhResult> candidates = jmh.stream().filter(b -> b.className().equals("PendingBenchmark"))
                .filter(JmhResult::isThroughput)
                .filter(b -> b.param("chats").map(v -> v.equals(Integer.toString(k))).orElse(false))
                .filter(b -> b.param("backend").map(backend.name()::equalsIgnoreCase).orElse(true))
                .toList();
        // The target is about reading and acknowledging together: prefer the method that does both.
        return candidates.stream().min(Comparator.comparingInt(
                b -> b.method().toLowerCase(Locale.ROOT).contains("ack") ? 0 : 1));
    }

    Optional<JmhResult> bookFetch(Backend backend, int k) {
        return baseline("BookFetchBenchmark", Optional.of(backend), atChats(k));
    }

    Optional<JmhResult> bookSend(Backend backend, int threads) {
        return baseline("BookSendBenchmark", Optional.of(backend), atThreads(threads));
    }

    /** The book's send on whichever client it was run. */
    Optional<JmhResult> bookSend(int threads) {
        return baseline("BookSendBenchmark", Optional.empty(), atThreads(threads));
    }

    /** The send script on the raw client, whichever client that was. */
    Optional<JmhResult> rawScript(int threads) {
        return baseline("RawScriptBenchmark", Optional.empty(), atThreads(threads));
    }

    /**
     * A baseline result for a backend: the baseline may or may not be run per client, so a result
     * naming this backend wins and one naming no backend at all stands in.
     */
    private Optional<JmhResult> baseline(String className, Optional<Backend> backend, Predicate<JmhResult> match) {
        Predicate<JmhResult> base = b -> b.isThroughput() && match.test(b);
        Optional<JmhResult> exact = backend.flatMap(wanted -> find(className, base.and(b -> b.names(wanted))));
        return exact.isPresent() ? exact : find(className, base);
    }

    private static Predicate<JmhResult> atChats(int k) {
        return b -> b.param("chats").map(v -> v.equals(Integer.toString(k))).orElse(false);
    }

    private static Predicate<JmhResult> atThreads(int threads) {
        return b -> b.threads() == threads;
    }
}
