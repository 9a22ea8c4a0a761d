package dev.pigeonhole.benchmarks.report;

import dev.pigeonhole.benchmarks.cli.CommandLines;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
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
        Flags flags = new Flags();
        Options options = CommandLines.parseOrExit(flags, args, flags::options);
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

    /** The command line as typed; {@link #options()} turns blanks, which run.sh passes for "unknown", into absent. */
    @Command(name = "ResultsReport", sortOptions = false,
            description = "Turns one benchmark run's results folder into RESULTS.md and its charts.")
    static final class Flags {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "--results", defaultValue = "benchmarks/target/results", description = "the run's results folder (default: ${DEFAULT-VALUE})")
        Path results;
        @Option(names = "--out", defaultValue = "benchmarks/RESULTS.md", description = "the page written (default: ${DEFAULT-VALUE})")
        Path out;
        @Option(names = "--charts", description = "the charts' folder (default: charts beside --out)")
        Path charts;
        @Option(names = "--mode", defaultValue = "full", description = "the run's mode, as run.sh names it (default: ${DEFAULT-VALUE})")
        String mode;
        @Option(names = "--duration-seconds", description = "how long the run took")
        Double durationSeconds;
        @Option(names = "--redis-version", description = "the Redis measured")
        String redisVersion;
        @Option(names = "--redis-url", description = "the Redis measured, when its version is not known")
        String redisUrl;
        @Option(names = "--redis-cluster", description = "the Redis Cluster measured, in words")
        String redisCluster;
        @Option(names = "--postgres-version", description = "the PostgreSQL measured")
        String postgresVersion;
        @Option(names = "--notes", description = "run.sh's notes on the run, if the file exists")
        Path notes;

        Options options() {
            Path chartsDir = charts != null ? charts : out.toAbsolutePath().getParent().resolve("charts");
            return new Options(results, out, chartsDir, mode,
                    durationSeconds == null ? OptionalDouble.empty() : OptionalDouble.of(durationSeconds),
                    given(redisVersion), given(redisUrl), given(redisCluster), given(postgresVersion),
                    Optional.ofNullable(notes).filter(Files::isRegularFile));
        }

        private static Optional<String> given(String value) {
            return Optional.ofNullable(value).filter(v -> !v.isBlank());
        }
    }

    /** The command line checked; IllegalArgumentException when it is wrong. */
    static Options parse(String... args) {
        Flags flags = new Flags();
        return CommandLines.parse(flags, args, flags::options);
    }
}
