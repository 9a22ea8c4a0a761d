package dev.pigeonhole.benchmarks.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Turns one benchmark run into {@code benchmarks/RESULTS.md} and its charts: the JMH JSON, the
 * redis-benchmark CSV of the send script at 1 and 8 clients, and the load generator's JSON files.
 * Any input may be absent: a run is often partial (a benchmark not written yet, Redis not there),
 * and a report that says "not run" is more useful than none.
 *
 * <pre>
 * java -cp benchmarks.jar dev.pigeonhole.benchmarks.report.ResultsReport \
 *   --jmh jmh.json --evalsha-1 evalsha-c1.csv --evalsha-8 evalsha-c8.csv \
 *   --load load-memory.json --load load-jedis.json ... \
 *   --out benchmarks/RESULTS.md --charts benchmarks/charts --mode quick --duration-seconds 170 \
 *   [--redis-version 7.0.15 | --redis-url redis://127.0.0.1:6379]
 * </pre>
 */
public final class ResultsReport {

    static final String NOT_RUN = "not run";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One JMH result, scores normalised: throughput in ops/s, times in microseconds. */
    record Bench(String className, String method, String mode, int threads, Map<String, String> params,
                 double score, double error, Map<String, Double> percentilesMicros, OptionalDouble bytesPerOp) {

        boolean isThroughput() {
            return mode.equals("thrpt");
        }

        boolean isSample() {
            return mode.equals("sample");
        }

        Optional<String> param(String name) {
            return params.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(Map.Entry::getValue).findFirst();
        }

        boolean virtual() {
            return method.toLowerCase(Locale.ROOT).contains("virtual");
        }

        String paramText() {
            if (params.isEmpty()) {
                return "";
            }
            StringBuilder text = new StringBuilder();
            params.forEach((k, v) -> text.append(text.isEmpty() ? "" : ", ").append(k).append('=').append(v));
            return text.toString();
        }
    }

    /** redis-benchmark's summary of one test. */
    record RedisBench(double rps, OptionalDouble p50Millis, OptionalDouble p99Millis) {
    }

    /** One run of the load generator. */
    record Load(String label, JsonNode json) {
    }

    record Options(Optional<Path> jmh, Optional<Path> evalsha1, Optional<Path> evalsha8, List<Path> loads,
                   Path out, Path charts, String mode, OptionalDouble durationSeconds, Optional<String> redisVersion,
                   Optional<String> redisUrl) {
    }

    private final Options options;
    private final List<Bench> benches;
    private final Optional<RedisBench> evalsha1;
    private final Optional<RedisBench> evalsha8;
    private final List<Load> loads;
    private final List<String> warnings = new ArrayList<>();

    ResultsReport(Options options) {
        this.options = options;
        this.benches = options.jmh().flatMap(this::readJmh).orElse(List.of());
        this.evalsha1 = options.evalsha1().flatMap(this::readRedisBench);
        this.evalsha8 = options.evalsha8().flatMap(this::readRedisBench);
        this.loads = options.loads().stream().map(this::readLoad).flatMap(Optional::stream).toList();
    }

    public static void main(String[] args) throws IOException {
        // Charts are drawn off-screen; a server without a display must not try to open one.
        System.setProperty("java.awt.headless", "true");
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("ResultsReport: " + e.getMessage());
            System.err.println("usage: ResultsReport [--jmh F] [--evalsha-1 F] [--evalsha-8 F] [--load F]... "
                    + "[--out RESULTS.md] [--charts DIR] [--mode quick|full] [--duration-seconds S] "
                    + "[--redis-version V | --redis-url redis://host:port]");
            System.exit(2);
            return;
        }
        ResultsReport report = new ResultsReport(options);
        report.write();
        System.out.println("ResultsReport: wrote " + options.out() + " and charts in " + options.charts());
    }

    static Options parse(String[] args) {
        Optional<Path> jmh = Optional.empty();
        Optional<Path> e1 = Optional.empty();
        Optional<Path> e8 = Optional.empty();
        List<Path> loads = new ArrayList<>();
        Path out = Path.of("benchmarks/RESULTS.md");
        Path charts = null;
        String mode = "full";
        OptionalDouble duration = OptionalDouble.empty();
        Optional<String> redisVersion = Optional.empty();
        Optional<String> redisUrl = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--jmh" -> jmh = Optional.of(Path.of(value));
                case "--evalsha-1" -> e1 = Optional.of(Path.of(value));
                case "--evalsha-8" -> e8 = Optional.of(Path.of(value));
                case "--load" -> loads.add(Path.of(value));
                case "--out" -> out = Path.of(value);
                case "--charts" -> charts = Path.of(value);
                case "--mode" -> mode = value;
                case "--duration-seconds" -> duration = OptionalDouble.of(Double.parseDouble(value));
                case "--redis-version" -> redisVersion = Optional.of(value).filter(v -> !v.isBlank());
                case "--redis-url" -> redisUrl = Optional.of(value).filter(v -> !v.isBlank());
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        Path parent = out.toAbsolutePath().getParent();
        if (charts == null) {
            charts = parent.resolve("charts");
        }
        return new Options(jmh, e1, e8, loads, out, charts, mode, duration, redisVersion, redisUrl);
    }

    // ---------------------------------------------------------------- reading

    private Optional<List<Bench>> readJmh(Path file) {
        if (!Files.isRegularFile(file)) {
            warnings.add("JMH results " + file + " not found: every JMH row shows \"not run\".");
            return Optional.empty();
        }
        try {
            JsonNode root = JSON.readTree(file.toFile());
            List<Bench> read = new ArrayList<>();
            for (JsonNode node : root.values()) {
                read.add(bench(node));
            }
            return Optional.of(read);
        } catch (RuntimeException e) {
            // A JMH run killed half way leaves a truncated file; report it rather than fail the whole report.
            warnings.add("JMH results " + file + " could not be read (" + e.getMessage() + ").");
            return Optional.empty();
        }
    }

    static Bench bench(JsonNode node) {
        String full = node.path("benchmark").asString("");
        int dot = full.lastIndexOf('.');
        String qualifiedClass = dot < 0 ? full : full.substring(0, dot);
        String className = qualifiedClass.substring(qualifiedClass.lastIndexOf('.') + 1);
        String method = dot < 0 ? "" : full.substring(dot + 1);
        String mode = node.path("mode").asString("");
        Map<String, String> params = new TreeMap<>();
        for (Map.Entry<String, JsonNode> p : node.path("params").properties()) {
            params.put(p.getKey(), p.getValue().asString(""));
        }
        JsonNode primary = node.path("primaryMetric");
        String unit = primary.path("scoreUnit").asString("");
        double factor = mode.equals("thrpt") ? toPerSecond(unit) : toMicros(unit);
        double score = primary.path("score").asDouble(Double.NaN) * factor;
        double error = primary.path("scoreError").asDouble(Double.NaN) * factor;
        Map<String, Double> percentiles = new TreeMap<>();
        for (Map.Entry<String, JsonNode> p : primary.path("scorePercentiles").properties()) {
            percentiles.put(p.getKey(), p.getValue().asDouble() * factor);
        }
        OptionalDouble alloc = OptionalDouble.empty();
        for (Map.Entry<String, JsonNode> m : node.path("secondaryMetrics").properties()) {
            // JMH names it "·gc.alloc.rate.norm" (with a middle dot); match the tail to be safe across versions.
            if (m.getKey().endsWith("gc.alloc.rate.norm")) {
                alloc = OptionalDouble.of(m.getValue().path("score").asDouble());
            }
        }
        return new Bench(className, method, mode, node.path("threads").asInt(1), params, score, error,
                percentiles, alloc);
    }

    static double toPerSecond(String unit) {
        return switch (unit) {
            case "ops/ms" -> 1e3;
            case "ops/us" -> 1e6;
            case "ops/ns" -> 1e9;
            case "ops/min" -> 1.0 / 60;
            default -> 1;
        };
    }

    static double toMicros(String unit) {
        return switch (unit) {
            case "s/op" -> 1e6;
            case "ms/op" -> 1e3;
            case "ns/op" -> 1e-3;
            default -> 1;
        };
    }

    private Optional<RedisBench> readRedisBench(Path file) {
        if (!Files.isRegularFile(file)) {
            warnings.add("redis-benchmark output " + file + " not found.");
            return Optional.empty();
        }
        try {
            Optional<RedisBench> parsed = redisBench(Files.readAllLines(file));
            if (parsed.isEmpty()) {
                warnings.add("redis-benchmark output " + file + " holds no result line.");
            }
            return parsed;
        } catch (IOException e) {
            warnings.add("redis-benchmark output " + file + " could not be read: " + e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * redis-benchmark 7's --csv prints a header ("test","rps","avg_latency_ms",...,"p50_latency_ms",
     * ...,"p99_latency_ms",...) then one line per test. Older versions print only "test","rps" with no
     * header, so columns are found by name when there is a header and by position otherwise.
     */
    static Optional<RedisBench> redisBench(List<String> lines) {
        List<String> header = List.of();
        for (String line : lines) {
            List<String> cells = csvCells(line);
            if (cells.size() < 2) {
                continue;
            }
            if (cells.get(1).equalsIgnoreCase("rps")) {
                header = cells;
                continue;
            }
            if (!header.isEmpty() && cells.size() > header.size()) {
                // The test name is the command line, and the send script's arguments hold JSON with
                // commas and quotes redis-benchmark does not escape: the numbers are the last columns.
                int extra = cells.size() - header.size();
                List<String> joined = new ArrayList<>();
                joined.add(String.join(",", cells.subList(0, extra + 1)));
                joined.addAll(cells.subList(extra + 1, cells.size()));
                cells = joined;
            }
            OptionalDouble rps = number(cells.get(header.isEmpty() ? 1 : Math.max(1, header.indexOf("rps"))));
            if (rps.isEmpty()) {
                continue;
            }
            return Optional.of(new RedisBench(rps.getAsDouble(), column(header, cells, "p50_latency_ms"),
                    column(header, cells, "p99_latency_ms")));
        }
        return Optional.empty();
    }

    private static OptionalDouble column(List<String> header, List<String> cells, String name) {
        int at = header.indexOf(name);
        return at < 0 || at >= cells.size() ? OptionalDouble.empty() : number(cells.get(at));
    }

    private static List<String> csvCells(String line) {
        List<String> cells = new ArrayList<>();
        for (String raw : line.trim().split(",")) {
            String cell = raw.trim();
            if (cell.length() >= 2 && cell.startsWith("\"") && cell.endsWith("\"")) {
                cell = cell.substring(1, cell.length() - 1);
            }
            cells.add(cell);
        }
        return cells;
    }

    private static OptionalDouble number(String text) {
        try {
            return OptionalDouble.of(Double.parseDouble(text));
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }

    private Optional<Load> readLoad(Path file) {
        if (!Files.isRegularFile(file)) {
            warnings.add("load result " + file + " not found.");
            return Optional.empty();
        }
        try {
            JsonNode json = JSON.readTree(file.toFile());
            String fallback = file.getFileName().toString().replaceFirst("\\.json$", "");
            return Optional.of(new Load(json.path("label").asString(fallback), json));
        } catch (RuntimeException e) {
            warnings.add("load result " + file + " could not be read (" + e.getMessage() + ").");
            return Optional.empty();
        }
    }

    // ---------------------------------------------------------------- finding results

    Optional<Bench> find(String className, Predicate<Bench> match) {
        return benches.stream().filter(b -> b.className().equals(className)).filter(match).findFirst();
    }

    /** Our send: the platform-thread methods, one result per backend and thread count. */
    Optional<Bench> send(String backend, int threads, boolean virtual) {
        return find("SendBenchmark", b -> b.isThroughput() && b.threads() == threads && b.virtual() == virtual
                && b.param("backend").map(backend::equalsIgnoreCase).orElse(false));
    }

    Optional<Bench> lettuceVirtual() {
        return find("SendBenchmark", b -> b.isThroughput() && b.virtual()
                && b.param("backend").map("LETTUCE"::equalsIgnoreCase).orElse(true));
    }

    /**
     * A baseline result for a backend: the baseline may or may not be run per client, so a result
     * naming this backend wins and one naming no backend at all stands in.
     */
    Optional<Bench> baseline(String className, String backend, Predicate<Bench> match) {
        Predicate<Bench> base = b -> b.isThroughput() && match.test(b);
        Optional<Bench> exact = find(className, base.and(b -> b.params().values().stream()
                .anyMatch(backend::equalsIgnoreCase)));
        return exact.isPresent() ? exact : find(className, base);
    }

    Optional<Bench> pending(String backend, int k) {
        List<Bench> candidates = benches.stream().filter(b -> b.className().equals("PendingBenchmark"))
                .filter(Bench::isThroughput)
                .filter(b -> b.param("chats").map(v -> v.equals(Integer.toString(k))).orElse(false))
                .filter(b -> b.param("backend").map(backend::equalsIgnoreCase).orElse(true))
                .toList();
        // The target is about reading and acknowledging together: prefer the method that does both.
        return candidates.stream().min(Comparator.comparingInt(
                b -> b.method().toLowerCase(Locale.ROOT).contains("ack") ? 0 : 1));
    }

    Optional<Bench> bookFetch(String backend, int k) {
        return baseline("BookFetchBenchmark", backend,
                b -> b.param("chats").map(v -> v.equals(Integer.toString(k))).orElse(false));
    }

    Optional<Bench> bookSend(String backend, int threads) {
        return baseline("BookSendBenchmark", backend, b -> b.threads() == threads);
    }

    Optional<Bench> rawScript(String backend, int threads) {
        return baseline("RawScriptBenchmark", backend, b -> b.threads() == threads);
    }

    // ---------------------------------------------------------------- ratios

    /** One target of the brief: measured/baseline must reach factor (baseline 1 for an absolute floor). */
    record Ratio(String name, String target, double factor, OptionalDouble ours, OptionalDouble baseline,
                 boolean absolute) {

        OptionalDouble measured() {
            if (ours.isEmpty() || baseline.isEmpty() || baseline.getAsDouble() <= 0) {
                return OptionalDouble.empty();
            }
            return OptionalDouble.of(absolute ? ours.getAsDouble() : ours.getAsDouble() / baseline.getAsDouble());
        }

        String measuredText() {
            OptionalDouble m = measured();
            if (m.isEmpty()) {
                return NOT_RUN;
            }
            return absolute ? opsText(m.getAsDouble()) + " ops/s" : String.format(Locale.ROOT, "%.2f×", m.getAsDouble());
        }

        String verdict() {
            OptionalDouble m = measured();
            if (m.isEmpty()) {
                return NOT_RUN + " (" + (ours.isEmpty() ? "ours" : "baseline") + " missing)";
            }
            double relative = m.getAsDouble() / factor - 1;
            String by = String.format(Locale.ROOT, "%+.0f%%", relative * 100);
            return relative >= 0 ? "**pass** (" + by + " over target)" : "**miss** (" + by + " under target)";
        }
    }

    List<Ratio> ratios() {
        List<Ratio> ratios = new ArrayList<>();
        OptionalDouble e1 = evalsha1.map(r -> OptionalDouble.of(r.rps())).orElse(OptionalDouble.empty());
        OptionalDouble e8 = evalsha8.map(r -> OptionalDouble.of(r.rps())).orElse(OptionalDouble.empty());
        for (String backend : List.of("JEDIS", "LETTUCE")) {
            String name = pretty(backend);
            ratios.add(new Ratio(name + " send, 1 thread ÷ redis-benchmark EVALSHA, 1 client", "≥ 0.85×", 0.85,
                    score(send(backend, 1, false)), e1, false));
            ratios.add(new Ratio(name + " send, 1 thread ÷ book send, 1 thread", "≥ 4×", 4,
                    score(send(backend, 1, false)), score(bookSend(backend, 1)), false));
        }
        for (String backend : List.of("JEDIS", "LETTUCE")) {
            String name = pretty(backend);
            ratios.add(new Ratio(name + " send, 8 threads ÷ redis-benchmark EVALSHA, 8 clients", "≥ 0.8×", 0.8,
                    score(send(backend, 8, false)), e8, false));
            ratios.add(new Ratio(name + " send, 8 threads ÷ book send, 8 threads", "≥ 15×", 15,
                    score(send(backend, 8, false)), score(bookSend(backend, 8)), false));
        }
        // The virtual-thread variant is how Lettuce is meant to be driven; shown when it was run.
        lettuceVirtual().ifPresent(v -> {
            ratios.add(new Ratio("Lettuce send, virtual threads (" + v.method() + ") ÷ redis-benchmark EVALSHA, 8 clients",
                    "≥ 0.8×", 0.8, OptionalDouble.of(v.score()), e8, false));
            ratios.add(new Ratio("Lettuce send, virtual threads (" + v.method() + ") ÷ book send, 8 threads",
                    "≥ 15×", 15, OptionalDouble.of(v.score()), score(bookSend("LETTUCE", 8)), false));
        });
        for (String backend : List.of("JEDIS", "LETTUCE")) {
            ratios.add(new Ratio(pretty(backend) + " pending+ack, K=100 ÷ book fetch, K=100", "≥ 20×", 20,
                    score(pending(backend, 100)), score(bookFetch(backend, 100)), false));
        }
        ratios.add(new Ratio("In-memory send, 1 thread", "≥ 3,000,000 ops/s", 3_000_000,
                score(send("IN_MEMORY", 1, false)), OptionalDouble.of(1), true));
        return ratios;
    }

    private static OptionalDouble score(Optional<Bench> bench) {
        return bench.map(b -> OptionalDouble.of(b.score())).orElse(OptionalDouble.empty());
    }

    static String pretty(String backend) {
        return switch (backend.toUpperCase(Locale.ROOT)) {
            case "IN_MEMORY" -> "In-memory";
            case "JEDIS" -> "Jedis";
            case "LETTUCE" -> "Lettuce";
            default -> backend;
        };
    }

    // ---------------------------------------------------------------- writing

    void write() throws IOException {
        Files.createDirectories(options.out().toAbsolutePath().getParent());
        Files.createDirectories(options.charts());
        Map<String, Optional<Path>> charts = new LinkedHashMap<>();
        charts.put("send", drawChart("send-throughput", this::sendChart));
        charts.put("pending", drawChart("pending-vs-book", this::pendingChart));
        charts.put("latency", drawChart("delivery-latency", this::latencyChart));

        StringBuilder md = new StringBuilder();
        md.append("# Pigeonhole benchmark results\n\n");
        md.append("Written by `benchmarks/run.sh")
                .append(options.mode().equals("quick") ? " --quick" : "")
                .append("` through `dev.pigeonhole.benchmarks.report.ResultsReport`; rerun it to refresh this page.\n\n");
        machine(md);
        if (options.mode().equals("quick")) {
            md.append("> **Quick mode:** very short JMH iterations and load runs. The numbers show that every "
                    + "piece works and roughly where it stands; they are not the measurement. Run "
                    + "`benchmarks/run.sh` without `--quick` for that.\n\n");
        }
        ratiosSection(md);
        sendSection(md, charts.get("send"));
        pendingSection(md, charts.get("pending"));
        loadSection(md, charts.get("latency"));
        allThroughput(md);
        allLatency(md);
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
                        + "in front, as the adapter loads it) through EVALSHA on the same Redis: it is the most "
                        + "this machine's Redis can do for one send, with no Java at all.\n")
                .append("- End-to-end latency is from a message's send request to its delivery to a "
                        + "recipient's socket, measured by the load generator on the same machine.\n");
        Files.writeString(options.out(), md.toString(), StandardCharsets.UTF_8);
    }

    private void machine(StringBuilder md) {
        md.append("## Machine and run\n\n| | |\n|---|---|\n");
        row(md, "Date", ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z")));
        row(md, "Mode", options.mode());
        row(md, "Duration", options.durationSeconds().isPresent()
                ? durationText(options.durationSeconds().getAsDouble()) : "not given");
        row(md, "CPU", cpuModel().orElse("unknown") + " — " + Runtime.getRuntime().availableProcessors()
                + " cores available to the JVM");
        memory().ifPresent(m -> row(md, "Memory", m));
        row(md, "OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
                + System.getProperty("os.arch") + ")");
        row(md, "JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vm.vendor") + ")");
        row(md, "Redis", redisVersion().orElse("unknown"));
        md.append('\n');
    }

    private static void row(StringBuilder md, String name, String value) {
        md.append("| ").append(name).append(" | ").append(value).append(" |\n");
    }

    static String durationText(double seconds) {
        Duration d = Duration.ofMillis(Math.round(seconds * 1000));
        return d.toHours() > 0
                ? String.format(Locale.ROOT, "%dh %02dm %02ds", d.toHours(), d.toMinutesPart(), d.toSecondsPart())
                : String.format(Locale.ROOT, "%dm %02ds", d.toMinutes(), d.toSecondsPart());
    }

    private static Optional<String> cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> memory() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                    .map(l -> l.replaceAll("\\D+", "")).filter(s -> !s.isEmpty())
                    .map(kb -> String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(kb) / 1048576.0)).findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private Optional<String> redisVersion() {
        if (options.redisVersion().isPresent()) {
            return options.redisVersion();
        }
        return options.redisUrl().flatMap(ResultsReport::askRedisVersion);
    }

    /** INFO over a plain socket: the report should not need a Redis client just to print a version. */
    static Optional<String> askRedisVersion(String url) {
        try {
            URI uri = URI.create(url);
            String host = uri.getHost() == null ? "127.0.0.1" : uri.getHost();
            int port = uri.getPort() < 0 ? 6379 : uri.getPort();
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), 2000);
                socket.setSoTimeout(2000);
                OutputStream out = socket.getOutputStream();
                out.write("INFO server\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                        StandardCharsets.US_ASCII));
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("redis_version:")) {
                        return Optional.of(line.substring("redis_version:".length()).trim());
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private void ratiosSection(StringBuilder md) {
        md.append("## Targets\n\n| Ratio | Target | Measured | Result |\n|---|---|---|---|\n");
        for (Ratio r : ratios()) {
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

    private void sendSection(StringBuilder md, Optional<Path> chart) {
        md.append("## Send\n\n");
        chartLink(md, chart, "Send throughput by backend and threads, against the book and redis-benchmark");
        md.append("| What | Threads | Throughput (ops/s) | B/op |\n|---|---:|---:|---:|\n");
        for (int threads : List.of(1, 8)) {
            for (String backend : List.of("IN_MEMORY", "JEDIS", "LETTUCE")) {
                benchRow(md, "Pigeonhole send, " + pretty(backend), threads, send(backend, threads, false));
            }
            benchRow(md, "Book send (baseline)", threads, bookSend("", threads));
            benchRow(md, "Send script via EVALSHA on the raw client (JMH)", threads, rawScript("", threads));
            Optional<RedisBench> rb = threads == 1 ? evalsha1 : evalsha8;
            md.append("| redis-benchmark EVALSHA of the send script | ").append(threads).append(threads == 1 ? " client | " : " clients | ")
                    .append(rb.map(r -> opsText(r.rps())).orElse(NOT_RUN)).append(" | — |\n");
        }
        Optional<Bench> virtual = lettuceVirtual();
        benchRow(md, "Pigeonhole send, Lettuce on virtual threads" + virtual.map(v -> " (" + v.method() + ")")
                .orElse(""), virtual.map(Bench::threads).orElse(0), virtual);
        md.append('\n');
        if (evalsha1.isPresent() || evalsha8.isPresent()) {
            md.append("redis-benchmark latency of the send script: ");
            evalsha1.ifPresent(r -> md.append("1 client p50 ").append(millis(r.p50Millis())).append(", p99 ")
                    .append(millis(r.p99Millis())).append("; "));
            evalsha8.ifPresent(r -> md.append("8 clients p50 ").append(millis(r.p50Millis())).append(", p99 ")
                    .append(millis(r.p99Millis())).append('.'));
            md.append("\n\n");
        }
    }

    private static String millis(OptionalDouble ms) {
        return ms.isPresent() ? String.format(Locale.ROOT, "%.3f ms", ms.getAsDouble()) : "—";
    }

    private void benchRow(StringBuilder md, String what, int threads, Optional<Bench> bench) {
        md.append("| ").append(what).append(" | ").append(threads == 0 ? "—" : Integer.toString(threads))
                .append(" | ").append(bench.map(ResultsReport::scoreText).orElse(NOT_RUN))
                .append(" | ").append(bench.map(ResultsReport::allocText).orElse("—")).append(" |\n");
    }

    private void pendingSection(StringBuilder md, Optional<Path> chart) {
        md.append("## Pending and acknowledge against the book's fetch\n\n");
        chartLink(md, chart, "Pending K=1/10/100, ours against the book's fetch (log scale)");
        md.append("| K | Pigeonhole, in-memory | Pigeonhole, Jedis | Pigeonhole, Lettuce | Book fetch (Jedis) | Book fetch (Lettuce) |\n")
                .append("|---:|---:|---:|---:|---:|---:|\n");
        for (int k : List.of(1, 10, 100)) {
            md.append("| ").append(k);
            for (String backend : List.of("IN_MEMORY", "JEDIS", "LETTUCE")) {
                md.append(" | ").append(pending(backend, k).map(b -> opsText(b.score())).orElse(NOT_RUN));
            }
            for (String backend : List.of("JEDIS", "LETTUCE")) {
                md.append(" | ").append(bookFetch(backend, k).map(b -> opsText(b.score())).orElse(NOT_RUN));
            }
            md.append(" |\n");
        }
        md.append("\nThroughput in operations per second.\n\n");
    }

    private void loadSection(StringBuilder md, Optional<Path> chart) {
        md.append("## End to end: the server under load\n\n");
        chartLink(md, chart, "End-to-end delivery latency by percentile, per backend");
        md.append("| Run | Users | Chats | Target rate | Sends/s | Deliveries/s | Delivered / expected | Errors "
                + "| p50 | p90 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<Load> shown = new ArrayList<>();
        for (String label : List.of("memory", "jedis", "lettuce")) {
            List<Load> matching = loads.stream().filter(l -> l.label().toLowerCase(Locale.ROOT).contains(label))
                    .filter(l -> !shown.contains(l)).toList();
            if (matching.isEmpty()) {
                md.append("| ").append(label).append(" | ").append((NOT_RUN + " | ").repeat(12).trim()).append('\n');
            }
            matching.forEach(l -> loadRow(md, l));
            shown.addAll(matching);
        }
        loads.stream().filter(l -> !shown.contains(l)).forEach(l -> loadRow(md, l));
        md.append('\n');
    }

    private static void loadRow(StringBuilder md, Load load) {
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

    private static String num(JsonNode json, String field) {
        JsonNode n = json.path(field);
        if (!n.isNumber()) {
            return "—";
        }
        // Counts are whole numbers; only rates may carry decimals worth showing.
        return n.isIntegralNumber() ? String.format(Locale.ROOT, "%,d", n.asLong()) : opsText(n.asDouble());
    }

    private static String microsText(JsonNode n) {
        if (!n.isNumber()) {
            return "—";
        }
        double us = n.asDouble();
        return us >= 1000 ? String.format(Locale.ROOT, "%.2f ms", us / 1000) : String.format(Locale.ROOT, "%.0f µs", us);
    }

    private void allThroughput(StringBuilder md) {
        md.append("## Every throughput result\n\n");
        List<Bench> rows = benches.stream().filter(Bench::isThroughput).sorted(ORDER).toList();
        if (rows.isEmpty()) {
            md.append("JMH: ").append(NOT_RUN).append(".\n\n");
            return;
        }
        md.append("| Benchmark | Params | Threads | Throughput (ops/s) | B/op |\n|---|---|---:|---:|---:|\n");
        for (Bench b : rows) {
            md.append("| ").append(b.className()).append('.').append(b.method()).append(" | ").append(b.paramText())
                    .append(" | ").append(b.threads()).append(" | ").append(scoreText(b))
                    .append(" | ").append(allocText(b)).append(" |\n");
        }
        md.append('\n');
    }

    private void allLatency(StringBuilder md) {
        md.append("## Latency (JMH sample and average time)\n\n");
        // Single-shot and average-time results have no percentiles; they still belong here.
        List<Bench> rows = benches.stream().filter(b -> !b.isThroughput()).sorted(ORDER).toList();
        if (rows.isEmpty()) {
            md.append("Time-per-operation benchmarks: ").append(NOT_RUN).append(".\n\n");
            return;
        }
        md.append("| Benchmark | Mode | Params | Threads | Mean | p50 | p99 | p99.9 | B/op |\n")
                .append("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Bench b : rows) {
            md.append("| ").append(b.className()).append('.').append(b.method()).append(" | ").append(b.mode())
                    .append(" | ").append(b.paramText()).append(" | ").append(b.threads())
                    .append(" | ").append(usText(b.score())).append(" | ").append(percentile(b, 50))
                    .append(" | ").append(percentile(b, 99)).append(" | ").append(percentile(b, 99.9))
                    .append(" | ").append(allocText(b)).append(" |\n");
        }
        md.append('\n');
    }

    private static final Comparator<Bench> ORDER = Comparator.comparing(Bench::className)
            .thenComparing(Bench::method).thenComparing(Bench::paramText).thenComparingInt(Bench::threads);

    private static String percentile(Bench b, double p) {
        // JMH keys percentiles as "50.0", "99.0", "99.9": compare as numbers, not text.
        return b.percentilesMicros().entrySet().stream()
                .filter(e -> number(e.getKey()).orElse(-1) == p)
                .map(e -> usText(e.getValue())).findFirst().orElse("—");
    }

    static String usText(double us) {
        if (Double.isNaN(us)) {
            return "—";
        }
        if (us >= 1000) {
            return String.format(Locale.ROOT, "%.2f ms", us / 1000);
        }
        return String.format(Locale.ROOT, us < 10 ? "%.2f µs" : "%.1f µs", us);
    }

    static String scoreText(Bench b) {
        // One measurement iteration gives JMH no error estimate (NaN): show the score alone then.
        return Double.isNaN(b.error()) ? opsText(b.score()) : opsText(b.score()) + " ± " + opsText(b.error());
    }

    static String allocText(Bench b) {
        return b.bytesPerOp().isPresent() ? String.format(Locale.ROOT, "%,.0f", b.bytesPerOp().getAsDouble()) : "—";
    }

    static String opsText(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "—";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    private void chartLink(StringBuilder md, Optional<Path> chart, String alt) {
        if (chart.isEmpty()) {
            md.append("_Chart: ").append(NOT_RUN).append(" (no data)._\n\n");
            return;
        }
        Path base = options.out().toAbsolutePath().getParent();
        String relative = base.relativize(chart.get().toAbsolutePath()).toString().replace('\\', '/');
        md.append("![").append(alt).append("](").append(relative).append(")\n\n");
    }

    // ---------------------------------------------------------------- charts

    private interface ChartMaker {
        Optional<org.knowm.xchart.internal.chartpart.Chart<?, ?>> make();
    }

    private Optional<Path> drawChart(String name, ChartMaker maker) {
        Path file = options.charts().resolve(name + ".png");
        try {
            Optional<org.knowm.xchart.internal.chartpart.Chart<?, ?>> chart = maker.make();
            if (chart.isEmpty()) {
                // A stale picture from an earlier run would contradict the "not run" beside it.
                Files.deleteIfExists(file);
                return Optional.empty();
            }
            BitmapEncoder.saveBitmap(chart.get(), file.toString(), BitmapEncoder.BitmapFormat.PNG);
            return Optional.of(file);
        } catch (IOException | RuntimeException e) {
            warnings.add("chart " + name + " could not be drawn: " + e);
            return Optional.empty();
        }
    }

    private Optional<org.knowm.xchart.internal.chartpart.Chart<?, ?>> sendChart() {
        List<String> x = List.of("1 thread / client", "8 threads / clients");
        Map<String, List<Double>> series = new LinkedHashMap<>();
        series.put("Jedis", List.of(orZero(send("JEDIS", 1, false)), orZero(send("JEDIS", 8, false))));
        series.put("Lettuce", List.of(orZero(send("LETTUCE", 1, false)), orZero(send("LETTUCE", 8, false))));
        Optional<Bench> virtual = lettuceVirtual();
        series.put("Lettuce, virtual threads", List.of(0.0, orZero(virtual)));
        series.put("Book send", List.of(orZero(bookSend("", 1)), orZero(bookSend("", 8))));
        series.put("Raw EVALSHA (JMH)", List.of(orZero(rawScript("", 1)), orZero(rawScript("", 8))));
        series.put("redis-benchmark EVALSHA", List.of(evalsha1.map(RedisBench::rps).orElse(0.0),
                evalsha8.map(RedisBench::rps).orElse(0.0)));
        series.values().removeIf(values -> values.stream().allMatch(v -> v == 0));
        if (series.isEmpty()) {
            return Optional.empty();
        }
        CategoryChart chart = new CategoryChartBuilder().width(900).height(500)
                .title("Send throughput (in-memory is in the table: it would flatten every bar)")
                .xAxisTitle("").yAxisTitle("sends per second").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        series.forEach((name, values) -> chart.addSeries(name, x, values));
        return Optional.of(chart);
    }

    private static double orZero(Optional<Bench> bench) {
        return bench.map(Bench::score).filter(s -> !Double.isNaN(s)).orElse(0.0);
    }

    private Optional<org.knowm.xchart.internal.chartpart.Chart<?, ?>> pendingChart() {
        XYChart chart = new XYChartBuilder().width(900).height(500).title("Pending + acknowledge against the book's fetch")
                .xAxisTitle("K (messages pending)").yAxisTitle("operations per second (log)").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        boolean any = false;
        for (String backend : List.of("IN_MEMORY", "JEDIS", "LETTUCE")) {
            any |= addLine(chart, "Pigeonhole, " + pretty(backend), k -> pending(backend, k));
        }
        for (String backend : List.of("JEDIS", "LETTUCE")) {
            // When the baseline is not run per client both lines would be the same one: draw it once.
            if (backend.equals("LETTUCE") && bookFetch("LETTUCE", 100).equals(bookFetch("JEDIS", 100))) {
                continue;
            }
            String name = bookFetch(backend, 100).map(b -> b.params().values().stream()
                    .anyMatch(backend::equalsIgnoreCase)).orElse(false) ? "Book fetch, " + pretty(backend) : "Book fetch";
            any |= addLine(chart, name, k -> bookFetch(backend, k));
        }
        return any ? Optional.of(chart) : Optional.empty();
    }

    private boolean addLine(XYChart chart, String name, java.util.function.IntFunction<Optional<Bench>> at) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int k : List.of(1, 10, 100)) {
            at.apply(k).filter(b -> b.score() > 0).ifPresent(b -> {
                xs.add((double) k);
                ys.add(b.score());
            });
        }
        if (xs.isEmpty()) {
            return false;
        }
        XYSeries series = chart.addSeries(name, xs, ys);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        return true;
    }

    private Optional<org.knowm.xchart.internal.chartpart.Chart<?, ?>> latencyChart() {
        XYChart chart = new XYChartBuilder().width(900).height(500).title("End-to-end delivery latency by percentile")
                .xAxisTitle("percentile, as 1/(1-p): 10 = p90, 100 = p99, 1000 = p99.9")
                .yAxisTitle("microseconds (log)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setMarkerSize(0);
        boolean any = false;
        java.util.Set<String> used = new java.util.HashSet<>();
        for (Load load : loads) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (JsonNode p : load.json().path("percentiles").values()) {
                double percentile = p.path("percentile").asDouble(Double.NaN);
                double micros = p.path("micros").asDouble(Double.NaN);
                // p100 maps to infinity on this axis, and log axes cannot show zero.
                if (Double.isNaN(percentile) || percentile >= 100 || !(micros > 0)) {
                    continue;
                }
                xs.add(1 / (1 - percentile / 100));
                ys.add(micros);
            }
            if (xs.size() >= 2) {
                String name = load.label();
                // Two runs may share a label; XChart refuses a repeated series name.
                for (int n = 2; !used.add(name); n++) {
                    name = load.label() + " (" + n + ")";
                }
                chart.addSeries(name, xs, ys);
                any = true;
            }
        }
        return any ? Optional.of(chart) : Optional.empty();
    }
}
