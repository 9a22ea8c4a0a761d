package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.Formats.NOT_RUN;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.benchmarks.Backend;
import dev.pigeonhole.benchmarks.clients.Measurements;
import dev.pigeonhole.benchmarks.clients.Measurements.Measure;
import dev.pigeonhole.benchmarks.clients.Measurements.Row;
import dev.pigeonhole.benchmarks.clients.Measurements.Version;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.DoubleFunction;
import java.util.stream.Collectors;

/**
 * The section of RESULTS.md that puts the Redis clients side by side: what {@code
 * ClientComparison} left in {@code clients/} ({@link Measurements}), one table per measure, a
 * column per client that has figures, each cell the median over the rounds with their min–max.
 */
final class ClientsSection {

    private static final String TITLE = "## Clients compared\n\n";

    private final List<Row> rows;
    private final List<Version> versions;
    private final Properties settings;
    private final List<RedisClientKind> clients;
    private final StringBuilder md = new StringBuilder();

    private ClientsSection(List<Row> rows, List<Version> versions, Properties settings) {
        this.rows = rows;
        this.versions = versions;
        this.settings = settings;
        Set<RedisClientKind> present = EnumSet.noneOf(RedisClientKind.class);
        rows.forEach(row -> present.add(row.client()));
        this.clients = List.copyOf(present);
    }

    /** The section, when the results hold a comparison; empty when they hold none (the other runs). */
    static Optional<String> markdownIfRun(Path results) {
        Path folder = results.resolve(Measurements.FOLDER);
        if (!Files.isRegularFile(folder.resolve(Measurements.MEASURES))) {
            return Optional.empty();
        }
        try {
            Properties settings = new Properties();
            Path file = folder.resolve(Measurements.SETTINGS);
            if (Files.isRegularFile(file)) {
                try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    settings.load(in);
                }
            }
            return Optional.of(markdown(Measurements.readRows(folder), Measurements.readVersions(folder), settings));
        } catch (IOException | RuntimeException e) {
            return Optional.of(TITLE + "`" + folder + "` could not be read (" + e.getMessage() + ").\n\n");
        }
    }

    /** The section for a results folder, or a note that the comparison did not run. */
    static String markdown(Path results) {
        return markdownIfRun(results).orElse(TITLE + NOT_RUN + " (no `" + Measurements.FOLDER + "/"
                + Measurements.MEASURES + "` in the results; `benchmarks/run.sh --clients` runs it).\n\n");
    }

    static String markdown(List<Row> rows, List<Version> versions, Properties settings) {
        return new ClientsSection(rows, versions, settings).write();
    }

    private String write() {
        md.append(TITLE);
        if (clients.isEmpty()) {
            return md.append(NOT_RUN).append(" (the comparison left no figures).\n\n").toString();
        }
        String k = settings.getProperty("chats", "?");
        md.append("Each client's system is built through the composition root as the server builds it, against one "
                        + "single-node Redis, in ").append(rounds()).append(" rounds, every client in each, the order "
                        + "alternating: ").append(orders()).append(". A cell is the median of the rounds, with their "
                        + "spread (min – max) beside it. **This machine is shared with other work and noisy: compare "
                        + "the columns with each other, not these figures with those of another run.**\n\n");
        md.append(versionsLine()).append("\n\n");
        table("Throughput: operations a second, closed loop, virtual-thread callers (" + seconds("seconds")
                        + " s each, after a warm-up). Pending + acknowledge at K = " + k + " chats with one new message "
                        + "each, timed around the fetch and the acknowledgement only (each caller's K sends before it "
                        + "are not), as JMH times `PendingBenchmark`.",
                new Line[] {
                    line("send, 1 caller", Measure.SEND_OPS_1),
                    line("send, 8 callers", Measure.SEND_OPS_8),
                    line("send, 64 callers", Measure.SEND_OPS_64),
                    line("pending + acknowledge, K = " + k + ", 1 caller", Measure.PENDING_OPS_1),
                    line("pending + acknowledge, K = " + k + ", 8 callers", Measure.PENDING_OPS_8),
                    line("pending + acknowledge, K = " + k + ", 64 callers", Measure.PENDING_OPS_64)},
                value -> Formats.opsText(value) + "/s");
        table("Send latency at a fixed offered rate of " + count("rate") + " sends a second, "
                        + seconds("latencySeconds") + " s after 1 s of warm-up, each send on a "
                        + "virtual thread of its own and timed from when it was due, not from when it started (no "
                        + "coordinated omission).",
                new Line[] {
                    line("p50", Measure.LATENCY_P50_MICROS),
                    line("p99", Measure.LATENCY_P99_MICROS),
                    line("p99.9", Measure.LATENCY_P999_MICROS)},
                Formats::usText);
        table("Sends of the latency run that started more than 1 ms after they were due: the harness falling "
                        + "behind, not the client; when it is large, the latencies above say more about the machine.",
                new Line[] {line("started late", Measure.LATENCY_LATE_START_PERCENT)},
                value -> String.format(Locale.ROOT, "%.1f %%", value));
        allocation(k);
        table("Connections one instance holds: `CLIENT LIST` entries carrying the instance's client name, right after "
                        + "it started and midway through 64 callers sending.",
                new Line[] {line("idle, after start", Measure.CONNECTIONS_IDLE),
                    line("64 callers sending", Measure.CONNECTIONS_BUSY)},
                value -> String.format(Locale.ROOT, "%.0f", value));
        table("Client CPU per send: the JVM's process CPU time over the sends done while 64 callers send ("
                        + seconds("cpuSeconds") + " s); the harness's own share is the same for "
                        + "every client.",
                new Line[] {line("CPU per send, 64 callers", Measure.CPU_MICROS_PER_OP)},
                Formats::usText);
        return md.toString();
    }

    /** Bytes per operation, with pending's K sends (which JMH counts with it) taken away. */
    private void allocation(String k) {
        int chats = parseInt(k);
        Line pendingAlone = new Line("pending + acknowledge, K = " + k + ", without its K sends", client -> {
            double send = median(values(client, Measure.SEND_BYTES_PER_OP));
            return values(client, Measure.PENDING_BYTES_PER_OP).stream().map(v -> v - chats * send).toList();
        });
        table("Bytes allocated per operation, one caller: `gc.alloc.rate.norm` of JMH's `-prof gc` (every thread "
                        + "of the fork, the client's own I/O threads too), `SendBenchmark.send` and "
                        + "`PendingBenchmark.pendingAndAcknowledge` in one fork per client after the rounds; here the "
                        + "median and spread are over that fork's " + settings.getProperty("allocIterations", "?")
                        + " measurement iterations. JMH counts the K sends of pending's per-invocation setup with it: "
                        + "the last row takes K × the send's median away.",
                new Line[] {line("send", Measure.SEND_BYTES_PER_OP),
                    line("pending + acknowledge, K = " + k + ", with its K sends", Measure.PENDING_BYTES_PER_OP),
                    chats > 0 ? pendingAlone : line("pending + acknowledge alone", Measure.PENDING_BYTES_PER_OP)},
                value -> String.format(Locale.ROOT, "%,.0f B", value));
    }

    /** A table's row: its label, and each client's values over the rounds. */
    private record Line(String label, Function<RedisClientKind, List<Double>> values) {
    }

    private Line line(String label, Measure measure) {
        return new Line(label, client -> values(client, measure));
    }

    private void table(String caption, Line[] lines, DoubleFunction<String> text) {
        md.append(caption).append("\n\n| |");
        clients.forEach(client -> md.append(' ').append(name(client)).append(" |"));
        md.append("\n|---|").append("---:|".repeat(clients.size())).append('\n');
        for (Line line : lines) {
            md.append("| ").append(line.label()).append(" |");
            clients.forEach(client -> md.append(' ').append(cell(line.values().apply(client), text)).append(" |"));
            md.append('\n');
        }
        md.append('\n');
    }

    /** The median, and the min – max beside it when the rounds differ. */
    static String cell(List<Double> values, DoubleFunction<String> text) {
        List<Double> finite = values.stream().filter(Double::isFinite).sorted().toList();
        if (finite.isEmpty()) {
            return "—";
        }
        String median = text.apply(median(finite));
        double min = finite.getFirst();
        double max = finite.getLast();
        return min == max ? median : median + " (" + text.apply(min) + " – " + text.apply(max) + ")";
    }

    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).sorted().toArray();
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private List<Double> values(RedisClientKind client, Measure measure) {
        return rows.stream().filter(row -> row.client() == client && row.measure() == measure).map(Row::value).toList();
    }

    /** The clients' versions and transports, then Netty's, as the comparison read them from its classpath. */
    String versionsLine() {
        List<String> parts = new ArrayList<>();
        for (RedisClientKind client : clients) {
            versions.stream().filter(v -> v.client().equals(client.name())).findFirst().ifPresentOrElse(
                    v -> parts.add(name(client) + " " + v.version() + " (" + v.transport() + ")"),
                    () -> parts.add(name(client) + " (version not recorded)"));
        }
        versions.stream().filter(v -> v.client().equals("NETTY")).findFirst()
                .ifPresent(v -> parts.add("Netty " + v.version() + " (" + v.transport() + ")"));
        return "**Versions:** " + String.join(" · ", parts) + ".";
    }

    /** Each round's order, as the rows were written (a client's rows follow each other). */
    private String orders() {
        TreeMap<Integer, Set<RedisClientKind>> byRound = new TreeMap<>();
        EnumSet<Measure> perRound = EnumSet.complementOf(EnumSet.of(Measure.SEND_BYTES_PER_OP,
                Measure.PENDING_BYTES_PER_OP));
        rows.stream().filter(row -> perRound.contains(row.measure()))
                .forEach(row -> byRound.computeIfAbsent(row.round(), r -> new LinkedHashSet<>()).add(row.client()));
        return byRound.entrySet().stream().map(e -> "round " + e.getKey() + " " + e.getValue().stream()
                .map(ClientsSection::name).collect(Collectors.joining(", "))).collect(Collectors.joining("; "));
    }

    private String rounds() {
        return settings.getProperty("rounds", Long.toString(rows.stream().mapToInt(Row::round).distinct().count()));
    }

    private static String name(RedisClientKind client) {
        return Formats.name(Backend.onSingleNode(client));
    }

    private static int parseInt(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A whole number of the settings, as the tables write numbers. */
    private String count(String key) {
        int value = parseInt(settings.getProperty(key, ""));
        return value > 0 ? Formats.opsText(value) : "?";
    }

    /** A length in seconds as the settings hold it, without a trailing ".0". */
    private String seconds(String key) {
        return settings.getProperty(key, "?").replaceAll("\\.0$", "");
    }
}
