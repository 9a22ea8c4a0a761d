package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.Backend.LETTUCE;

import dev.pigeonhole.benchmarks.Backend;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Predicate;

/** The JMH results of one JMH run, and the ways the report finds the one result it wants among them. */
record JmhResults(List<JmhResult> all) {

    static final JmhResults NONE = new JmhResults(List.of());

    Optional<JmhResult> find(String className, Predicate<JmhResult> match) {
        return all.stream().filter(b -> b.className().equals(className)).filter(match).findFirst();
    }

    /** Our send: the platform-thread methods, one result per backend and thread count. */
    Optional<JmhResult> send(Backend backend, int threads) {
        return find("SendBenchmark", b -> b.isThroughput() && b.threads() == threads && !b.virtual() && on(b, backend));
    }

    /** A benchmark with one throughput result per backend and no other parameter (mailbox, presence). */
    Optional<JmhResult> of(String className, Backend backend) {
        return find(className, b -> b.isThroughput() && on(b, backend));
    }

    Optional<JmhResult> lettuceVirtual() {
        return find("SendBenchmark", b -> b.isThroughput() && b.virtual()
                && b.param("backend").map(LETTUCE.name()::equalsIgnoreCase).orElse(true));
    }

    /** Many callers sharing the store's connections ({@code ManyCallersBenchmark}, {@code @Param callers}). */
    Optional<JmhResult> manyCallers(Backend backend, int callers) {
        return find("ManyCallersBenchmark", b -> b.isThroughput() && on(b, backend)
                && b.param("callers").map(Integer.toString(callers)::equals).orElse(false));
    }

    Optional<JmhResult> pending(Backend backend, int k) {
        List<JmhResult> candidates = all.stream().filter(b -> b.className().equals("PendingBenchmark"))
                .filter(JmhResult::isThroughput)
                .filter(atChats(k))
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

    /** The send function on the raw client, whichever client that was. */
    Optional<JmhResult> rawScript(int threads) {
        return baseline("RawFunctionBenchmark", Optional.empty(), atThreads(threads));
    }

    /**
     * These results, completed by the median over the rounds of each result these lack: the
     * tables then show a figure for every benchmark either part of the run measured.
     */
    JmhResults completedBy(List<JmhResults> rounds) {
        Map<String, JmhResult> byKey = new LinkedHashMap<>();
        all.forEach(b -> byKey.put(b.key(), b));
        Map<String, List<JmhResult>> fromRounds = new LinkedHashMap<>();
        rounds.forEach(round -> round.all().forEach(b -> fromRounds.computeIfAbsent(b.key(), k -> new ArrayList<>()).add(b)));
        fromRounds.forEach((key, results) -> byKey.computeIfAbsent(key, k -> median(results)));
        return new JmhResults(List.copyOf(byKey.values()));
    }

    /** The result with the median score of several (the lower middle of an even count), its error unknown. */
    private static JmhResult median(List<JmhResult> results) {
        List<JmhResult> sorted = results.stream().sorted(Comparator.comparingDouble(JmhResult::score)).toList();
        JmhResult middle = sorted.get((sorted.size() - 1) / 2);
        return new JmhResult(middle.className(), middle.method(), middle.mode(), middle.threads(), middle.params(),
                middle.score(), Double.NaN, middle.percentilesMicros(), middle.bytesPerOp());
    }

    /** A score, or nothing when the result is missing. */
    static OptionalDouble score(Optional<JmhResult> result) {
        return result.filter(b -> !Double.isNaN(b.score())).map(b -> OptionalDouble.of(b.score()))
                .orElse(OptionalDouble.empty());
    }

    private static boolean on(JmhResult b, Backend backend) {
        return b.param("backend").map(backend.name()::equalsIgnoreCase).orElse(false);
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
