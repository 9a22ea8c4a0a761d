package dev.pigeonhole.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Turns one benchmark run into {@code benchmarks/RESULTS.md} and its charts, in four steps that
 * each have a class: {@link ResultFiles} reads what the run left (the JMH JSON, the
 * redis-benchmark CSV of the send script at 1 and 8 clients, the load generator's JSON files),
 * {@link Targets} computes the ratios the run is held to, {@link Charts} draws the pictures and
 * {@link ResultsPage} writes the page. Any input may be absent: a report that says "not run" is
 * more useful than none.
 *
 * <pre>
 * java -cp benchmarks.jar dev.pigeonhole.benchmarks.report.ResultsReport \
 *   --jmh jmh.json --evalsha-1 evalsha-c1.csv --evalsha-8 evalsha-c8.csv \
 *   --load load-memory.json --load load-jedis.json ... \
 *   --out benchmarks/RESULTS.md --charts benchmarks/charts --mode quick --duration-seconds 170 \
 *   [--redis-version 7.0.15 | --redis-url redis://127.0.0.1:6379] [--postgres-version 15.14]
 * </pre>
 */
public final class ResultsReport {

    /** The command line, checked. */
    record Options(Optional<Path> jmh, Optional<Path> evalsha1, Optional<Path> evalsha8, List<Path> loads,
                   Path out, Path charts, String mode, OptionalDouble durationSeconds, Optional<String> redisVersion,
                   Optional<String> redisUrl, Optional<String> postgresVersion) {
    }

    private ResultsReport() {
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
                    + "[--redis-version V | --redis-url redis://host:port] [--postgres-version V]");
            System.exit(2);
            return;
        }
        write(options);
        System.out.println("ResultsReport: wrote " + options.out() + " and charts in " + options.charts());
    }

    static void write(Options options) throws IOException {
        RunResults run = ResultFiles.read(options.jmh(), options.evalsha1(), options.evalsha8(), options.loads());
        Files.createDirectories(options.out().toAbsolutePath().getParent());
        Files.createDirectories(options.charts());
        Charts.Drawn charts = Charts.draw(run, options.charts());
        Files.writeString(options.out(), ResultsPage.markdown(options, run, charts), StandardCharsets.UTF_8);
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
        Optional<String> postgresVersion = Optional.empty();
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
                case "--postgres-version" -> postgresVersion = Optional.of(value).filter(v -> !v.isBlank());
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        Path parent = out.toAbsolutePath().getParent();
        if (charts == null) {
            charts = parent.resolve("charts");
        }
        return new Options(jmh, e1, e8, loads, out, charts, mode, duration, redisVersion, redisUrl, postgresVersion);
    }
}
