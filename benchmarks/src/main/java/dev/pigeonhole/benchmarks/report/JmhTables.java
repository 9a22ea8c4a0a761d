package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.Formats.NOT_RUN;
import static dev.pigeonhole.benchmarks.report.Formats.allocText;
import static dev.pigeonhole.benchmarks.report.Formats.millisText;
import static dev.pigeonhole.benchmarks.report.Formats.opsText;
import static dev.pigeonhole.benchmarks.report.Formats.percentileText;
import static dev.pigeonhole.benchmarks.report.Formats.scoreText;
import static dev.pigeonhole.benchmarks.report.Formats.usText;
import static dev.pigeonhole.benchmarks.report.RunResults.ON_REDIS;
import static dev.pigeonhole.benchmarks.report.RunResults.TABLED;

import dev.pigeonhole.benchmarks.Backend;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The page's tables of JMH figures: send against the book and redis-benchmark, pending against the
 * book's fetch, the other hot paths side by side, then every result of the catalog.
 */
final class JmhTables {

    private static final Comparator<JmhResult> ORDER = Comparator.comparing(JmhResult::className)
            .thenComparing(JmhResult::method).thenComparing(JmhResult::paramText).thenComparingInt(JmhResult::threads);

    private final StringBuilder md;
    private final RunResults run;
    /** The figures the tables show: the catalog, completed by the rounds' medians. */
    private final JmhResults jmh;
    private final Charts.Drawn charts;
    /** The page being written, which chart links are relative to. */
    private final Path page;

    JmhTables(StringBuilder md, RunResults run, Charts.Drawn charts, Path page) {
        this.md = md;
        this.run = run;
        this.jmh = run.tables();
        this.charts = charts;
        this.page = page;
    }

    void send() {
        md.append("## Send\n\n");
        chartLink(charts.send(), "Send throughput by backend and threads, against the book and redis-benchmark");
        md.append("| What | Threads | Throughput (ops/s) | B/op |\n|---|---:|---:|---:|\n");
        for (int threads : List.of(1, 8)) {
            for (Backend backend : TABLED) {
                resultRow("Pigeonhole send, " + Formats.name(backend), threads, jmh.send(backend, threads));
            }
            resultRow("Book send (baseline)", threads, jmh.bookSend(threads));
            resultRow("Send function via FCALL on the raw client (JMH)", threads, jmh.rawScript(threads));
            Optional<RedisBenchmarkResult> rb = run.redisBenchmark(threads == 1 ? Round.ONE_CLIENT : Round.EIGHT_CLIENTS);
            md.append("| redis-benchmark FCALL of the send function | ").append(threads).append(threads == 1 ? " client | " : " clients | ")
                    .append(rb.map(r -> opsText(r.rps())).orElse(NOT_RUN)).append(" | — |\n");
        }
        Optional<JmhResult> virtual = jmh.lettuceVirtual();
        resultRow("Pigeonhole send, Lettuce on virtual threads" + virtual.map(v -> " (" + v.method() + ")")
                .orElse(""), virtual.map(JmhResult::threads).orElse(0), virtual);
        for (Backend backend : RunResults.ON_REDIS) {
            for (int callers : Targets.MANY_CALLERS) {
                resultRow("Pigeonhole send, " + Formats.name(backend) + ", " + callers + " callers (ManyCallersBenchmark)",
                        0, jmh.manyCallers(backend, callers));
            }
        }
        md.append("| redis-benchmark FCALL of the send function, pipelined (`-c 50 -P 16`) | 50 clients | ")
                .append(run.redisBenchmark(Round.PIPELINED).map(r -> opsText(r.rps())).orElse(NOT_RUN)).append(" | — |\n");
        md.append('\n');
        Optional<RedisBenchmarkResult> one = run.redisBenchmark(Round.ONE_CLIENT);
        Optional<RedisBenchmarkResult> eight = run.redisBenchmark(Round.EIGHT_CLIENTS);
        if (one.isPresent() || eight.isPresent()) {
            md.append("redis-benchmark figures are the median over the rounds; latency of the send function: ");
            one.ifPresent(r -> md.append("1 client p50 ").append(millisText(r.p50Millis())).append(", p99 ")
                    .append(millisText(r.p99Millis())).append("; "));
            eight.ifPresent(r -> md.append("8 clients p50 ").append(millisText(r.p50Millis())).append(", p99 ")
                    .append(millisText(r.p99Millis())).append('.'));
            md.append("\n\n");
        }
    }

    private void resultRow(String what, int threads, Optional<JmhResult> result) {
        md.append("| ").append(what).append(" | ").append(threads == 0 ? "—" : Integer.toString(threads))
                .append(" | ").append(result.map(Formats::scoreText).orElse(NOT_RUN))
                .append(" | ").append(result.map(Formats::allocText).orElse("—")).append(" |\n");
    }

    void pending() {
        md.append("## Pending and acknowledge against the book's fetch\n\n");
        chartLink(charts.pending(), "Pending K=1/10/100, ours against the book's fetch (log scale)");
        md.append("| K");
        TABLED.forEach(backend -> md.append(" | Pigeonhole, ").append(Formats.name(backend)));
        ON_REDIS.forEach(backend -> md.append(" | Book fetch (").append(Formats.name(backend)).append(')'));
        md.append(" |\n|---:").append("|---:".repeat(TABLED.size() + ON_REDIS.size())).append("|\n");
        for (int k : List.of(1, 10, 100)) {
            md.append("| ").append(k);
            for (Backend backend : TABLED) {
                md.append(" | ").append(jmh.pending(backend, k).map(b -> opsText(b.score())).orElse(NOT_RUN));
            }
            for (Backend backend : ON_REDIS) {
                md.append(" | ").append(jmh.bookFetch(backend, k).map(b -> opsText(b.score())).orElse(NOT_RUN));
            }
            md.append(" |\n");
        }
        md.append("\nThroughput in operations per second.\n\n");
    }

    /** The other hot paths, one column per backend: they have no baseline, only each other. */
    void mailboxAndPresence() {
        md.append("## Mailbox and presence\n\n| What");
        TABLED.forEach(backend -> md.append(" | ").append(Formats.name(backend)));
        md.append(" |\n|---").append("|---:".repeat(TABLED.size())).append("|\n");
        otherRow("Direct message delivered, read and acknowledged", "MailboxBenchmark");
        otherRow("Presence heartbeat", "PresenceBenchmark");
        md.append("\nThroughput in operations per second.\n\n");
    }

    private void otherRow(String what, String className) {
        md.append("| ").append(what);
        for (Backend backend : TABLED) {
            md.append(" | ").append(jmh.of(className, backend).map(Formats::scoreText).orElse(NOT_RUN));
        }
        md.append(" |\n");
    }

    void allThroughput() {
        md.append("## Every throughput result\n\n");
        List<JmhResult> rows = jmh.all().stream().filter(JmhResult::isThroughput).sorted(ORDER).toList();
        if (rows.isEmpty()) {
            md.append("JMH: ").append(NOT_RUN).append(".\n\n");
            return;
        }
        md.append("| Benchmark | Params | Threads | Throughput (ops/s) | B/op |\n|---|---|---:|---:|---:|\n");
        for (JmhResult b : rows) {
            md.append("| ").append(b.className()).append('.').append(b.method()).append(" | ").append(b.paramText())
                    .append(" | ").append(b.threads()).append(" | ").append(scoreText(b))
                    .append(" | ").append(allocText(b)).append(" |\n");
        }
        md.append('\n');
    }

    void allLatency() {
        md.append("## Latency (JMH sample and average time)\n\n");
        // Single-shot and average-time results have no percentiles; they still belong here.
        List<JmhResult> rows = jmh.all().stream().filter(b -> !b.isThroughput()).sorted(ORDER).toList();
        if (rows.isEmpty()) {
            md.append("Time-per-operation benchmarks: ").append(NOT_RUN).append(".\n\n");
            return;
        }
        md.append("| Benchmark | Mode | Params | Threads | Mean | p50 | p99 | p99.9 | B/op |\n")
                .append("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (JmhResult b : rows) {
            md.append("| ").append(b.className()).append('.').append(b.method()).append(" | ").append(b.mode())
                    .append(" | ").append(b.paramText()).append(" | ").append(b.threads())
                    .append(" | ").append(usText(b.score())).append(" | ").append(percentileText(b, 50))
                    .append(" | ").append(percentileText(b, 99)).append(" | ").append(percentileText(b, 99.9))
                    .append(" | ").append(allocText(b)).append(" |\n");
        }
        md.append('\n');
    }

    private void chartLink(Optional<Path> chart, String alt) {
        ResultsPage.chartLink(md, page, chart, alt);
    }
}
