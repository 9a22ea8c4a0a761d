package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.ClientsSection.cell;
import static dev.pigeonhole.benchmarks.report.Formats.NOT_RUN;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.benchmarks.Backend;
import dev.pigeonhole.benchmarks.durability.Samples;
import dev.pigeonhole.benchmarks.durability.Samples.Row;
import dev.pigeonhole.benchmarks.durability.Samples.Side;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.ToDoubleBiFunction;
import java.util.function.ToDoubleFunction;

/**
 * The section of RESULTS.md on what waiting for a replica costs a send: what {@code DurableSends}
 * left in {@code durability/} ({@link Samples}), a line per client and number of callers, each
 * cell the median over the rounds with their min – max, and the cost of durability as each
 * round's durable ÷ none, its two sides measured back to back.
 */
public final class DurabilitySection {

    private static final String TITLE = "## Durable sends\n\n";

    private final List<Row> rows;
    private final Properties settings;
    private final StringBuilder md = new StringBuilder();

    private DurabilitySection(List<Row> rows, Properties settings) {
        this.rows = rows;
        this.settings = settings;
    }

    /** The section for the results folder, if {@code DurableSends} left figures there. */
    static Optional<String> markdownIfRun(Path results) {
        Path folder = results.resolve(Samples.FOLDER);
        return Files.isRegularFile(folder.resolve(Samples.MEASURES)) ? Optional.of(markdown(folder)) : Optional.empty();
    }

    /** The section for the results folder, or a note that the phase did not run. */
    static String markdownOrNotRun(Path results) {
        return markdownIfRun(results).orElse(TITLE + NOT_RUN + " (no `" + Samples.FOLDER + "/" + Samples.MEASURES
                + "` in the results; `benchmarks/run.sh --durability` runs it).\n\n");
    }

    /** The section for the folder {@code DurableSends} wrote, which it also prints when it ends. */
    public static String markdown(Path folder) {
        try {
            Properties settings = new Properties();
            Path file = folder.resolve(Samples.SETTINGS);
            if (Files.isRegularFile(file)) {
                try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    settings.load(in);
                }
            }
            return markdown(Samples.read(folder), settings);
        } catch (IOException | RuntimeException e) {
            return TITLE + "`" + folder + "` could not be read (" + e.getMessage() + ").\n\n";
        }
    }

    static String markdown(List<Row> rows, Properties settings) {
        return new DurabilitySection(rows, settings).write();
    }

    /** A client and number of callers: one line of each table. */
    private record Line(RedisClientKind client, int callers) {
    }

    private String write() {
        md.append(TITLE);
        List<Line> lines = lines();
        if (lines.isEmpty()) {
            return md.append(NOT_RUN).append(" (the run left no figures).\n\n").toString();
        }
        String asked = settings.getProperty("durability", "replicas=?");
        md.append("What a send costs when it is answered only once a replica holds it: the Redis adapter's send port "
                + "(`RedisChats.send`, as the server calls it) on a primary with one replica, both `redis-server` ")
                .append(settings.getProperty("redisVersion", "")).append(" on loopback, `Durability.NONE` against `")
                .append(asked).append("` (`--redis-durability ").append(asked).append("`). In each of ")
                .append(rounds()).append(" rounds every client in turn, with a fresh driver: ")
                .append(settings.getProperty("warmupSends", "?")).append(" untimed sends of each side and number of "
                        + "callers, the loopback round trip (the mean of ").append(settings.getProperty("pings", "?"))
                .append(" PINGs), each number of callers' two sides back to back, then the round trip again. Which "
                        + "side goes first alternates: none first in the odd rounds, durable first in the even ones. "
                        + "Each side is ").append(settings.getProperty("sends", "?")).append(" sends shared by its "
                        + "callers, virtual threads in a closed loop, each send timed whole. A cell is the median of "
                        + "the rounds, with their spread (min – max).\n\n");
        md.append("Run ").append(settings.getProperty("date", "(date not recorded)")).append("; machine load (1, 5, 15 "
                + "min) ").append(settings.getProperty("loadBefore", "?")).append(" before and ")
                .append(settings.getProperty("loadAfter", "?")).append(" after; the phase took ")
                .append(settings.getProperty("seconds", "?")).append(" s. **This machine is shared with other work and "
                        + "noisy: read each durable figure against the none beside it, measured next to it, not "
                        + "against another run's.**\n\n");
        md.append("| Client | Callers | Sends/s, none | Sends/s, durable | Durable ÷ none | p50 none | p50 durable "
                + "| p99 none | p99 durable | p50 durable − none | Round trip |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Line line : lines) {
            md.append("| ").append(name(line.client())).append(" | ").append(line.callers())
                    .append(" | ").append(cell(side(line, Side.NONE, Row::sendsPerSecond), Formats::opsText))
                    .append(" | ").append(cell(side(line, Side.DURABLE, Row::sendsPerSecond), Formats::opsText))
                    .append(" | ").append(cell(perRound(line, (durable, none) -> durable.sendsPerSecond()
                            / none.sendsPerSecond()), DurabilitySection::ratioText))
                    .append(" | ").append(cell(side(line, Side.NONE, Row::p50Micros), Formats::usText))
                    .append(" | ").append(cell(side(line, Side.DURABLE, Row::p50Micros), Formats::usText))
                    .append(" | ").append(cell(side(line, Side.NONE, Row::p99Micros), Formats::usText))
                    .append(" | ").append(cell(side(line, Side.DURABLE, Row::p99Micros), Formats::usText))
                    .append(" | ").append(cell(perRound(line, (durable, none) -> durable.p50Micros()
                            - none.p50Micros()), Formats::usText))
                    .append(" | ").append(cell(roundTrips(line), Formats::usText)).append(" |\n");
        }
        md.append('\n');
        md.append("The cost of durability round by round: sends a second durable ÷ none, the two measured back to "
                + "back.\n\n");
        List<Integer> rounds = rows.stream().map(Row::round).distinct().sorted().toList();
        md.append("| Client | Callers |");
        rounds.forEach(round -> md.append(" Round ").append(round).append(" |"));
        md.append("\n|---|---:|");
        rounds.forEach(round -> md.append("---:|"));
        md.append('\n');
        for (Line line : lines) {
            md.append("| ").append(name(line.client())).append(" | ").append(line.callers()).append(" |");
            for (int round : rounds) {
                Optional<Row> durable = row(line, round, Side.DURABLE);
                Optional<Row> none = row(line, round, Side.NONE);
                md.append(' ').append(durable.isPresent() && none.isPresent()
                        ? ratioText(durable.get().sendsPerSecond() / none.get().sendsPerSecond()) : "—").append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        md.append("The durable side runs the same function, then `WAIT` on the same connection in the same round trip; "
                + "Redis answers the WAIT once the replica has acknowledged the write, so the wait is the replication "
                + "stream to the replica and its acknowledgement back: on loopback about one more round trip and the "
                + "replica's own work (the p50 difference against the round-trip column), across a network the round "
                + "trip to the replica, on every durable write. Redis serves one connection's commands in order and a "
                + "WAIT holds those queued behind it: Jedis and Redisson lend each caller a connection of their pools, "
                + "so many callers' waits overlap, while Lettuce and GLIDE carry every caller over one shared "
                + "connection per node, where one caller's WAIT holds the others' calls until it returns.\n\n");
        return md.toString();
    }

    /** Every client and number of callers present, clients in the order of their first row. */
    private List<Line> lines() {
        List<Line> lines = new ArrayList<>();
        List<RedisClientKind> clients = rows.stream().map(Row::client).distinct().toList();
        for (RedisClientKind client : clients) {
            new TreeSet<>(rows.stream().filter(row -> row.client() == client).map(Row::callers).toList())
                    .forEach(callers -> lines.add(new Line(client, callers)));
        }
        return lines;
    }

    private List<Double> side(Line line, Side side, ToDoubleFunction<Row> value) {
        return rows.stream().filter(row -> row.client() == line.client() && row.callers() == line.callers()
                && row.side() == side).map(value::applyAsDouble).toList();
    }

    /** {@code value} of each round's durable and none measures, in the rounds that have both. */
    private List<Double> perRound(Line line, ToDoubleBiFunction<Row, Row> value) {
        List<Double> values = new ArrayList<>();
        rows.stream().map(Row::round).distinct().sorted().forEach(round -> {
            Optional<Row> durable = row(line, round, Side.DURABLE);
            Optional<Row> none = row(line, round, Side.NONE);
            if (durable.isPresent() && none.isPresent()) {
                values.add(value.applyAsDouble(durable.get(), none.get()));
            }
        });
        return values;
    }

    /** Each round's round trip: the mean of the one before and the one after the client's round. */
    private List<Double> roundTrips(Line line) {
        return rows.stream().filter(row -> row.client() == line.client() && row.callers() == line.callers()
                && row.side() == Side.NONE).map(row -> (row.pingBeforeMicros() + row.pingAfterMicros()) / 2).toList();
    }

    private Optional<Row> row(Line line, int round, Side side) {
        return rows.stream().filter(row -> row.round() == round && row.client() == line.client()
                && row.callers() == line.callers() && row.side() == side).findFirst();
    }

    static String ratioText(double ratio) {
        return Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.2f×", ratio) : "—";
    }

    private String rounds() {
        return settings.getProperty("rounds", Long.toString(rows.stream().mapToInt(Row::round).distinct().count()));
    }

    private static String name(RedisClientKind client) {
        return Formats.name(Backend.onSingleNode(client));
    }
}
