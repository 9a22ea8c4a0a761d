package dev.pigeonhole.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Turns one benchmark run into {@code benchmarks/RESULTS.md} and its charts, in four steps that
 * each have a class: {@link ResultFiles} reads what the run left in its results folder (the JMH
 * catalog, and per round of the ratio phase its JMH runs, redis-benchmark CSVs, load and HTTP
 * results), {@link Targets} computes the ratios the run is held to, round by round, {@link Charts}
 * draws the pictures and {@link ResultsPage} writes the page. Any input may be absent: a report
 * that says "not run" is more useful than none.
 *
 * <pre>
 * java -cp benchmarks.jar dev.pigeonhole.benchmarks.report.ResultsReport \
 *   --results benchmarks/target/results \
 *   --out benchmarks/RESULTS.md --charts benchmarks/charts --mode quick --duration-seconds 170 \
 *   [--redis-version 7.0.15 | --redis-url redis://127.0.0.1:6379] [--redis-cluster "3 masters, 127.0.0.1"] \
 *   [--postgres-version 15.14] [--notes notes.md]
 * </pre>
 */
public final class ResultsReport {

    /** The command line, checked. */
    record Options(Path results, Path out, Path charts, String mode, OptionalDouble durationSeconds,
                   Optional<String> redisVersion, Optional<String> redisUrl, Optional<String> redisCluster,
                   Optional<String> postgresVersion, Optional<Path> notes) {
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
            System.err.println("usage: ResultsReport [--results DIR] "
                    + "[--out RESULTS.md] [--charts DIR] [--mode quick|full] [--duration-seconds S] "
                    + "[--redis-version V | --redis-url redis://host:port] [--redis-cluster TEXT] "
                    + "[--postgres-version V] [--notes FILE]");
            System.exit(2);
            return;
        }
        write(options);
        System.out.println("ResultsReport: wrote " + options.out() + " and charts in " + options.charts());
    }

    static void write(Options options) throws IOException {
        RunResults run = ResultFiles.read(options.results());
        Files.createDirectories(options.out().toAbsolutePath().getParent());
        Files.createDirectories(options.charts());
        Charts.Drawn charts = Charts.draw(run, options.charts());
        Files.writeString(options.out(), ResultsPage.markdown(options, run, charts), StandardCharsets.UTF_8);
    }

    static Options parse(String[] args) {
        Path results = Path.of("benchmarks/target/results");
        Path out = Path.of("benchmarks/RESULTS.md");
        Path charts = null;
        String mode = "full";
        OptionalDouble duration = OptionalDouble.empty();
        Optional<String> redisVersion = Optional.empty();
        Optional<String> redisUrl = Optional.empty();
        Optional<String> redisCluster = Optional.empty();
        Optional<String> postgresVersion = Optional.empty();
        Optional<Path> notes = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--results" -> results = Path.of(value);
                case "--out" -> out = Path.of(value);
                case "--charts" -> charts = Path.of(value);
                case "--mode" -> mode = value;
                case "--duration-seconds" -> duration = OptionalDouble.of(Double.parseDouble(value));
                case "--redis-version" -> redisVersion = Optional.of(value).filter(v -> !v.isBlank());
                case "--redis-url" -> redisUrl = Optional.of(value).filter(v -> !v.isBlank());
                case "--redis-cluster" -> redisCluster = Optional.of(value).filter(v -> !v.isBlank());
                case "--postgres-version" -> postgresVersion = Optional.of(value).filter(v -> !v.isBlank());
                case "--notes" -> notes = Optional.of(Path.of(value)).filter(Files::isRegularFile);
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        Path parent = out.toAbsolutePath().getParent();
        if (charts == null) {
            charts = parent.resolve("charts");
        }
        return new Options(results, out, charts, mode, duration, redisVersion, redisUrl, redisCluster, postgresVersion,
                notes);
    }
}
