package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.Formats.NOT_RUN;
import static dev.pigeonhole.benchmarks.report.Formats.allocText;
import static dev.pigeonhole.benchmarks.report.Formats.microsText;
import static dev.pigeonhole.benchmarks.report.Formats.millisText;
import static dev.pigeonhole.benchmarks.report.Formats.num;
import static dev.pigeonhole.benchmarks.report.Formats.opsText;
import static dev.pigeonhole.benchmarks.report.Formats.percentileText;
import static dev.pigeonhole.benchmarks.report.Formats.scoreText;
import static dev.pigeonhole.benchmarks.report.Formats.usText;
import static dev.pigeonhole.benchmarks.report.RunResults.ON_REDIS;
import static dev.pigeonhole.benchmarks.report.RunResults.SINGLE_NODE;

import dev.pigeonhole.benchmarks.Backend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** The text of RESULTS.md: the machine, the targets, a table per question, then every result. */
final class ResultsPage {

    private static final Comparator<JmhResult> ORDER = Comparator.comparing(JmhResult::className)
            .thenComparing(JmhResult::method).thenComparing(JmhResult::paramText).thenComparingInt(JmhResult::threads);

    private final ResultsReport.Options options;
    private final RunResults run;
    private final Charts.Drawn charts;
    private final StringBuilder md = new StringBuilder();

    private ResultsPage(ResultsReport.Options options, RunResults run, Charts.Drawn charts) {
        this.options = options;
        this.run = run;
        this.charts = charts;
    }

    static String markdown(ResultsReport.Options options, RunResults run, Charts.Drawn charts) {
        return new ResultsPage(options, run, charts).write();
    }

    private String write() {
        md.append("# Pigeonhole benchmark results\n\n");
        md.append("Written by `benchmarks/run.sh")
                .append(options.mode().equals("quick") ? " --quick" : "")
                .append("` through `dev.pigeonhole.benchmarks.report.ResultsReport`; rerun it to refresh this page.\n\n");
        Machine.section(md, options);
        if (options.mode().equals("quick")) {
            md.append("> **Quick mode:** very short JMH iterations and load runs. The numbers show that every "
                    + "piece works and roughly where it stands; they are not the measurement. Run "
                    + "`benchmarks/run.sh` without `--quick` for that.\n\n");
        }
        targets();
        send();
        pending();
        mailboxAndPresence();
        load();
        allThroughput();
        allLatency();
        List<String> warnings = new ArrayList<>(run.warnings());
        warnings.addAll(charts.warnings());
        if (!warnings.isEmpty()) {
            md.append("## Inputs missing or unreadable\n\n");
            warnings.forEach(w -> md.append("- ").append(w.replaceAll("\\s*\\R\\s*", " ")).append('\n'));
            md.append('\n');
        }
        md.append("## How to read this\n\n")
                .append("- Throughput is JMH's mean over measurement iterations, ± its 99.9% confidence half-width.\n")
                .append("- B/op is `gc.alloc.rate.norm` from `-prof gc`: bytes allocated per operation, by "
                        + "the benchmark thread.\n")
                .append("- redis-benchmark runs the adapter's own send script (`chat_send.lua` with `common.lua` "
                        + "and `chat.lua` in front, as the adapter loads it) through EVALSHA on the same Redis: it is the most "
                        + "this machine's Redis can do for one send, with no Java at all.\n")
                .append("- End-to-end latency is from a message's send request to its delivery to a "
                        + "recipient's socket, measured by the load generator on the same machine.\n");
        return md.toString();
    }

    private void targets() {
        md.append("## Targets\n\n| Ratio | Target | Measured | Result |\n|---|---|---|---|\n");
        for (Ratio r : Targets.of(run)) {
            md.append("| ").append(r.name()).append(" | ").append(r.target()).append(" | ")
                    .append(r.measuredText()).append(" | ").append(r.verdict()).append(" |\n");
        }
        md.append('\n');
        // Why a target is missed takes a person reading a profile; it lives in a file of its own
        // next to this page, so that rerunning the numbers does not throw the reasons away.
        Path analysis = options.out().toAbsolutePath().resolveSibling("ANALYSIS.md");
        if (Files.isRegularFile(analysis)) {
            try {
                md.append(Files.readString(analysis).strip()).append("\n\n");
            } catch (IOException e) {
                md.append("(ANALYSIS.md could not be read: ").append(e.getMessage()).append(")\n\n");
            }
        }
    }

    private void send() {
        md.append("## Send\n\n");
        chartLink(charts.send(), "Send throughput by backend and threads, against the book and redis-benchmark");
        md.append("| What | Threads | Throughput (ops/s) | B/op |\n|---|---:|---:|---:|\n");
        for (int threads : List.of(1, 8)) {
            for (Backend backend : SINGLE_NODE) {
                resultRow("Pigeonhole send, " + Formats.name(backend), threads, run.send(backend, threads));
            }
            resultRow("Book send (baseline)", threads, run.bookSend(threads));
            resultRow("Send script via EVALSHA on the raw client (JMH)", threads, run.rawScript(threads));
            Optional<RedisBenchmarkResult> rb = threads == 1 ? run.evalsha1() : run.evalsha8();
            md.append("| redis-benchmark EVALSHA of the send script | ").append(threads).append(threads == 1 ? " client | " : " clients | ")
                    .append(rb.map(r -> opsText(r.rps())).orElse(NOT_RUN)).append(" | — |\n");
        }
        Optional<JmhResult> virtual = run.lettuceVirtual();
        resultRow("Pigeonhole send, Lettuce on virtual threads" + virtual.map(v -> " (" + v.method() + ")")
                .orElse(""), virtual.map(JmhResult::threads).orElse(0), virtual);
        md.append('\n');
        if (run.evalsha1().isPresent() || run.evalsha8().isPresent()) {
            md.append("redis-benchmark latency of the send script: ");
            run.evalsha1().ifPresent(r -> md.append("1 client p50 ").append(millisText(r.p50Millis())).append(", p99 ")
                    .append(millisText(r.p99Millis())).append("; "));
            run.evalsha8().ifPresent(r -> md.append("8 clients p50 ").append(millisText(r.p50Millis())).append(", p99 ")
                    .append(millisText(r.p99Millis())).append('.'));
            md.append("\n\n");
        }
    }

    private void resultRow(String what, int threads, Optional<JmhResult> result) {
        md.append("| ").append(what).append(" | ").append(threads == 0 ? "—" : Integer.toString(threads))
                .append(" | ").append(result.map(Formats::scoreText).orElse(NOT_RUN))
                .append(" | ").append(result.map(Formats::allocText).orElse("—")).append(" |\n");
    }

    private void pending() {
        md.append("## Pending and acknowledge against the book's fetch\n\n");
        chartLink(charts.pending(), "Pending K=1/10/100, ours against the book's fetch (log scale)");
        md.append("| K");
        SINGLE_NODE.forEach(backend -> md.append(" | Pigeonhole, ").append(Formats.name(backend)));
        ON_REDIS.forEach(backend -> md.append(" | Book fetch (").append(Formats.name(backend)).append(')'));
        md.append(" |\n|---:").append("|---:".repeat(SINGLE_NODE.size() + ON_REDIS.size())).append("|\n");
        for (int k : List.of(1, 10, 100)) {
            md.append("| ").append(k);
            for (Backend backend : SINGLE_NODE) {
                md.append(" | ").append(run.pending(backend, k).map(b -> opsText(b.score())).orElse(NOT_RUN));
            }
            for (Backend backend : ON_REDIS) {
                md.append(" | ").append(run.bookFetch(backend, k).map(b -> opsText(b.score())).orElse(NOT_RUN));
            }
            md.append(" |\n");
        }
        md.append("\nThroughput in operations per second.\n\n");
    }

    /** The other hot paths, one column per backend: they have no baseline, only each other. */
    private void mailboxAndPresence() {
        md.append("## Mailbox and presence\n\n| What");
        SINGLE_NODE.forEach(backend -> md.append(" | ").append(Formats.name(backend)));
        md.append(" |\n|---").append("|---:".repeat(SINGLE_NODE.size())).append("|\n");
        otherRow("Direct message delivered, read and acknowledged", "MailboxBenchmark");
        otherRow("Presence heartbeat", "PresenceBenchmark");
        md.append("\nThroughput in operations per second.\n\n");
    }

    private void otherRow(String what, String className) {
        md.append("| ").append(what);
        for (Backend backend : SINGLE_NODE) {
            md.append(" | ").append(run.of(className, backend).map(Formats::scoreText).orElse(NOT_RUN));
        }
        md.append(" |\n");
    }

    private void load() {
        md.append("## End to end: the server under load\n\n");
        chartLink(charts.latency(), "End-to-end delivery latency by percentile, per backend");
        md.append("| Run | Users | Chats | Target rate | Sends/s | Deliveries/s | Delivered / expected | Errors "
                + "| p50 | p90 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<LoadRun> shown = new ArrayList<>();
        for (Backend backend : SINGLE_NODE) {
            String label = Formats.loadLabel(backend);
            List<LoadRun> matching = run.loads().stream().filter(l -> l.label().toLowerCase(Locale.ROOT).contains(label))
                    .filter(l -> !shown.contains(l)).toList();
            if (matching.isEmpty()) {
                md.append("| ").append(label).append(" | ").append((NOT_RUN + " | ").repeat(12).trim()).append('\n');
            }
            matching.forEach(this::loadRow);
            shown.addAll(matching);
        }
        run.loads().stream().filter(l -> !shown.contains(l)).forEach(this::loadRow);
        md.append('\n');
    }

    private void loadRow(LoadRun load) {
        JsonNode j = load.json();
        JsonNode lat = j.path("latencyMicros");
        md.append("| ").append(load.label()).append(" | ").append(j.path("users").asString("—"))
                .append(" | ").append(j.path("chats").asString("—"))
                .append(" | ").append(num(j, "rateTarget")).append("/s")
                .append(" | ").append(num(j, "sendsPerSecond"))
                .append(" | ").append(num(j, "deliveriesPerSecond"))
                .append(" | ").append(num(j, "delivered")).append(" / ").append(num(j, "expectedDeliveries"))
                .append(" | ").append(num(j, "errors"));
        for (String p : List.of("p50", "p90", "p99", "p999", "max")) {
            md.append(" | ").append(microsText(lat.path(p)));
        }
        md.append(" |\n");
    }

    private void allThroughput() {
        md.append("## Every throughput result\n\n");
        List<JmhResult> rows = run.jmh().stream().filter(JmhResult::isThroughput).sorted(ORDER).toList();
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

    private void allLatency() {
        md.append("## Latency (JMH sample and average time)\n\n");
        // Single-shot and average-time results have no percentiles; they still belong here.
        List<JmhResult> rows = run.jmh().stream().filter(b -> !b.isThroughput()).sorted(ORDER).toList();
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
        if (chart.isEmpty()) {
            md.append("_Chart: ").append(NOT_RUN).append(" (no data)._\n\n");
            return;
        }
        Path base = options.out().toAbsolutePath().getParent();
        String relative = base.relativize(chart.get().toAbsolutePath()).toString().replace('\\', '/');
        md.append("![").append(alt).append("](").append(relative).append(")\n\n");
    }
}
