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
import static dev.pigeonhole.benchmarks.report.RunResults.STORES;
import static dev.pigeonhole.benchmarks.report.RunResults.TABLED;

import dev.pigeonhole.benchmarks.Backend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** The text of RESULTS.md: the machine, the targets, a table per question, then every result. */
final class ResultsPage {

    private static final Comparator<JmhResult> ORDER = Comparator.comparing(JmhResult::className)
            .thenComparing(JmhResult::method).thenComparing(JmhResult::paramText).thenComparingInt(JmhResult::threads);

    private final ResultsReport.Options options;
    private final RunResults run;
    /** The figures the tables show: the catalog, completed by the rounds' medians. */
    private final JmhResults jmh;
    private final Charts.Drawn charts;
    private final StringBuilder md = new StringBuilder();

    private ResultsPage(ResultsReport.Options options, RunResults run, Charts.Drawn charts) {
        this.options = options;
        this.run = run;
        this.jmh = run.tables();
        this.charts = charts;
    }

    static String markdown(ResultsReport.Options options, RunResults run, Charts.Drawn charts) {
        return new ResultsPage(options, run, charts).write();
    }

    private String write() {
        md.append("# Pigeonhole benchmark results\n\n");
        md.append("Written by `benchmarks/run.sh")
                .append(options.mode().equals("full") ? "" : " --" + options.mode())
                .append("` through `dev.pigeonhole.benchmarks.report.ResultsReport`; rerun it to refresh this page.\n\n");
        Machine.section(md, options);
        if (options.mode().equals("quick")) {
            md.append("> **Quick mode:** fewer and much shorter rounds, JMH iterations and load runs than the full "
                    + "run. The numbers show that every piece works and roughly where it stands; they are not the "
                    + "measurement, and a verdict drawn from fewer than 3 rounds is not one either. Run "
                    + "`benchmarks/run.sh` without `--quick` for that.\n\n");
        }
        if (options.mode().equals("clients")) {
            // The comparison alone: every other section would say "not run".
            notes();
            return md.append(ClientsSection.markdown(options.results())).toString();
        }
        if (options.mode().equals("durability")) {
            notes();
            return md.append(DurabilitySection.markdownOrNotRun(options.results())).toString();
        }
        coldWarning();
        notes();
        targets();
        send();
        pending();
        mailboxAndPresence();
        md.append(FloorsSection.markdown(options.results()));
        ClientsSection.markdownIfRun(options.results()).ifPresent(md::append);
        DurabilitySection.markdownIfRun(options.results()).ifPresent(md::append);
        load();
        fanOut();
        httpRate();
        connections();
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
                .append("- The targets come from the rounds of the ratio phase; the tables from the catalog, one JMH "
                        + "run of every benchmark (a result only the rounds measured shows their median, without ±).\n")
                .append("- Throughput is JMH's mean over measurement iterations, ± its 99.9% confidence half-width.\n")
                .append("- B/op is `gc.alloc.rate.norm` from `-prof gc`: bytes allocated per operation, by "
                        + "the benchmark thread.\n")
                .append("- redis-benchmark calls the adapter's own send function (`chat_send` of its Functions "
                        + "library, loaded as the adapter loads it) through FCALL on the same Redis: it is the most "
                        + "this machine's Redis can do for one send, with no Java at all.\n")
                .append("- End-to-end latency is from the time a message's send was due (the load generator paces "
                        + "sends by the clock) to its delivery to a recipient's socket, on the same machine.\n");
        return md.toString();
    }

    private void targets() {
        List<Ratio> ratios = Targets.of(run);
        int rounds = run.rounds().stream().mapToInt(Round::number).max().orElse(0);
        md.append("## Targets\n\n")
                .append("Each target's two sides are measured back to back in every round of the ratio phase (")
                .append(rounds).append(rounds == 1 ? " round" : " rounds").append(" in this run")
                .append(rounds < 3 ? ", fewer than the 3 a verdict needs: read these as a first look" : "")
                .append("). A target is **met** only when every round clears it, **missed** when none does, and "
                        + "**undecided** when the rounds fall on both sides of it.\n\n");
        md.append("| Ratio | Target");
        for (int n = 1; n <= rounds; n++) {
            md.append(" | Round ").append(n);
        }
        md.append(" | Spread (min – max) | Verdict |\n|---|---").append("|---:".repeat(rounds)).append("|---|---|\n");
        for (Ratio r : ratios) {
            md.append("| ").append(r.name()).append(" | ").append(r.targetText());
            for (int n = 1; n <= rounds; n++) {
                int number = n;
                md.append(" | ").append(r.rounds().stream().filter(side -> side.round() == number).findFirst()
                        .map(r::roundText).orElse("—"));
            }
            md.append(" | ").append(r.spreadText()).append(" | ").append(r.verdictText()).append(" |\n");
        }
        md.append("\nThe many-live-connections targets, one run per N, and the floors' are in their own sections below.\n\n");
        RoundTripModel.section(md, run);
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

    private void pending() {
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
    private void mailboxAndPresence() {
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

    private void load() {
        md.append("## End to end: the server under load\n\n");
        chartLink(charts.latency(), "End-to-end delivery latency by percentile, per backend, last round");
        md.append("One server per store, started once and kept through the rounds, so that later rounds meet a "
                + "warm JIT; the stores take turns in each round.\n\n");
        md.append("| Run | Users | Chats | Target rate | Sends/s | Deliveries/s | Delivered / expected | Errors "
                + "| p50 | p90 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<LoadRun> loads = run.loads();
        if (loads.isEmpty()) {
            for (String store : STORES) {
                md.append("| ").append(store).append(" | ").append((NOT_RUN + " | ").repeat(12).trim()).append('\n');
            }
        }
        loads.forEach(this::loadRow);
        md.append('\n');
    }

    /** The load generator's fan-out scenario: 100 sockets in one chat, each store's server, round by round. */
    private void fanOut() {
        md.append("## Fan-out: 100 sockets in one chat\n\n")
                .append("The load generator's fan-out scenario (`--scenario fanout --sockets 100 --rate 100`) "
                        + "against the same servers, after their load run in each round: 100 users each hold a "
                        + "socket in one chat while messages are sent to it at 100 a second. The figures are from when a "
                        + "message's send was due to its arrival on the **last** of the 100 sockets; the target is p99 "
                        + "≤ 10 ms on memory and Redis.\n\n");
        md.append("| Round | Store | Messages | Sends/s | p50 | p90 | p99 | p99.9 | max | Errors |\n")
                .append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        boolean any = false;
        for (Round round : run.rounds()) {
            for (String store : STORES) {
                Optional<LoadRun> fan = round.fanOut(store);
                if (fan.isEmpty()) {
                    continue;
                }
                any = true;
                JsonNode json = fan.get().json();
                JsonNode last = json.path("lastSocketLatencyMicros");
                md.append("| ").append(round.number()).append(" | ").append(store)
                        .append(" | ").append(num(last, "messages"))
                        .append(" | ").append(num(json, "sendsPerSecond"));
                for (String p : List.of("p50", "p90", "p99", "p999", "max")) {
                    md.append(" | ").append(microsText(last.path(p)));
                }
                md.append(" | ").append(num(json, "errors")).append(" |\n");
            }
        }
        if (!any) {
            md.append("| — | — | ").append((NOT_RUN + " | ").repeat(8).trim()).append('\n');
        }
        md.append('\n');
    }

    /** The HTTP send rate: callers that send as fast as the server answers, the capacity the load runs stay under. */
    private void httpRate() {
        md.append("## HTTP send rate\n\n")
                .append("Closed-loop callers posting sends into one chat over HTTP, each sending again as soon as "
                        + "its answer arrives (`SendRate`): the most sends a second the server carries per store. The "
                        + "stores take turns within each round. Sends per second, with p50 / p99 of one send.\n\n");
        md.append("| Round");
        STORES.forEach(store -> md.append(" | ").append(store));
        md.append(" |\n|---:").append("|---:".repeat(STORES.size())).append("|\n");
        if (run.rounds().isEmpty()) {
            md.append("| — ").append((" | " + NOT_RUN).repeat(STORES.size())).append(" |\n");
        }
        for (Round round : run.rounds()) {
            md.append("| ").append(round.number());
            for (String store : STORES) {
                md.append(" | ").append(Optional.ofNullable(round.http().get(store)).map(h -> num(h.json(), "sendsPerSecond")
                        + " (" + microsText(h.json().path("latencyMicros").path("p50")) + " / "
                        + microsText(h.json().path("latencyMicros").path("p99")) + ")").orElse(NOT_RUN));
            }
            md.append(" |\n");
        }
        md.append('\n');
    }

    /** The many-live-connections benchmark, one column per N run, and its targets held against the largest N. */
    private void connections() {
        md.append("## Many live connections\n\n");
        Map<Integer, JsonNode> byN = run.connections();
        if (byN.isEmpty()) {
            md.append(NOT_RUN).append(" (no `connections-N.json` in the results). Its targets: connects per second at "
                    + "N = 5 000 at least 0.8× the rate of the first 100 and at least 500/s; at most 64 KiB of server "
                    + "memory per idle socket; the last of 999 sockets in one chat served within 50 ms at N = 5 000."
                    + "\n\n");
            return;
        }
        md.append("`ConnectionsBenchmark` against a fresh in-memory server for each N (rate limits off): N users "
                + "open one live socket each, one after another; then one message at a time goes to a chat of the "
                + "first members' sockets.");
        if (byN.keySet().stream().noneMatch(n -> n >= 5_000)) {
            md.append(" **This run did not reach N = 5 000** (quick mode runs smaller N): the targets below are "
                    + "held against its largest N, which says less than the full run's.");
        }
        md.append("\n\n| Target | Bound | Measured | Verdict |\n|---|---:|---:|---|\n");
        for (Ratio target : Targets.connections(byN)) {
            md.append("| ").append(target.name()).append(" | ").append(target.targetText()).append(" | ")
                    .append(target.rounds().stream().findFirst().map(target::roundText).orElse("—")).append(" | ")
                    .append(target.verdictText().replace("(worst round ", "(").replace("(best round ", "("))
                    .append(" |\n");
        }
        md.append("\n| Field");
        byN.keySet().forEach(n -> md.append(" | N = ").append(Formats.opsText(n)));
        md.append(" |\n|---").append("|---:".repeat(byN.size())).append("|\n");
        Map<String, List<String>> rows = new LinkedHashMap<>();
        int column = 0;
        for (JsonNode json : byN.values()) {
            Map<String, String> fields = new LinkedHashMap<>();
            flatten("", json, fields);
            for (Map.Entry<String, String> field : fields.entrySet()) {
                List<String> row = rows.computeIfAbsent(field.getKey(), k -> new ArrayList<>());
                while (row.size() < column) {
                    row.add("—");
                }
                row.add(field.getValue());
            }
            column++;
        }
        rows.forEach((field, values) -> {
            md.append("| ").append(field);
            for (int i = 0; i < byN.size(); i++) {
                md.append(" | ").append(i < values.size() ? values.get(i) : "—");
            }
            md.append(" |\n");
        });
        md.append('\n');
    }

    /**
     * A JSON document's leaves by their dotted path, each as the page shows it; the connections
     * benchmark's {@code stretches} (connects per second over each tenth of N) become one row.
     */
    private static void flatten(String path, JsonNode node, Map<String, String> into) {
        if (path.equals("stretches") && node.isArray()) {
            List<String> rates = new ArrayList<>();
            node.values().forEach(stretch -> rates.add(opsText(stretch.path("connectsPerSecond").asDouble(Double.NaN))));
            into.put("stretches: connects/s over each tenth of N", String.join(" · ", rates));
        } else if (node.isObject()) {
            node.properties().forEach(e -> flatten(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), e.getValue(),
                    into));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                flatten(path + "[" + i + "]", node.get(i), into);
            }
        } else {
            into.put(path, node.isNull() ? "—" : node.isIntegralNumber() ? String.format(Locale.ROOT, "%,d", node.asLong())
                    : node.isNumber() ? opsText(node.asDouble()) : node.asString(""));
        }
    }

    /**
     * A load run whose median delivery takes 100 ms or more measured a cold or overloaded server,
     * not the system: the page says so above the numbers rather than leave them to be quoted.
     */
    private void coldWarning() {
        List<String> slow = run.loads().stream().filter(l -> l.json().path("latencyMicros").path("p50").isNumber()
                        && l.json().path("latencyMicros").path("p50").asDouble() >= 100_000)
                .map(LoadRun::label).toList();
        if (!slow.isEmpty()) {
            md.append("> **Cold end-to-end figures:** the median delivery of ").append(String.join(", ", slow))
                    .append(" took 100 ms or more: those runs measured a server still warming up (or a machine "
                            + "busy with other work), not its steady state.\n\n");
        }
    }

    /** What run.sh noted about this run: its rounds, options and the machine's load along the way. */
    private void notes() {
        if (options.notes().isEmpty()) {
            return;
        }
        try {
            md.append("### How this run was made\n\n").append(Files.readString(options.notes().get()).strip())
                    .append("\n\n");
        } catch (IOException e) {
            md.append("(the run's notes could not be read: ").append(e.getMessage()).append(")\n\n");
        }
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

    private void allLatency() {
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
        if (chart.isEmpty()) {
            md.append("_Chart: ").append(NOT_RUN).append(" (no data)._\n\n");
            return;
        }
        Path base = options.out().toAbsolutePath().getParent();
        String relative = base.relativize(chart.get().toAbsolutePath()).toString().replace('\\', '/');
        md.append("![").append(alt).append("](").append(relative).append(")\n\n");
    }
}
