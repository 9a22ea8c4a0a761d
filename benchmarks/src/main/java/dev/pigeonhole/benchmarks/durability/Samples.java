package dev.pigeonhole.benchmarks.durability;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The files {@link DurableSends} leaves in its folder, in the one format it writes and the report
 * reads: {@value #MEASURES}, a row per round, client, number of callers and side, and
 * {@value #SETTINGS}, how the run was made.
 */
public final class Samples {

    public static final String FOLDER = "durability";
    public static final String MEASURES = "measures.csv";
    public static final String SETTINGS = "settings.properties";

    static final String HEADER = "round,client,callers,side,sends,seconds,p50_micros,p99_micros,"
            + "ping_before_micros,ping_after_micros";

    /** The two sides a round measures back to back. */
    public enum Side {
        /** {@code Durability.NONE}: answered when the primary ran the send. */
        NONE,
        /** Answered once the replicas asked for acknowledged the send (WAIT after the function). */
        DURABLE
    }

    /**
     * One side's measure in one round: {@code sends} sends by {@code callers} callers took
     * {@code seconds} of wall clock; each send's own time, p50 and p99; the loopback round trip
     * (a PING's mean) measured right before and right after the client's round.
     */
    public record Row(int round, RedisClientKind client, int callers, Side side, long sends, double seconds,
                      double p50Micros, double p99Micros, double pingBeforeMicros, double pingAfterMicros) {

        public double sendsPerSecond() {
            return sends / seconds;
        }

        String line() {
            return String.format(Locale.ROOT, "%d,%s,%d,%s,%d,%.6f,%.1f,%.1f,%.2f,%.2f", round, client, callers, side,
                    sends, seconds, p50Micros, p99Micros, pingBeforeMicros, pingAfterMicros);
        }

        static Row parse(String line) {
            String[] cells = line.split(",", -1);
            if (cells.length != 10) {
                throw new IllegalArgumentException("not " + HEADER + ": " + line);
            }
            return new Row(Integer.parseInt(cells[0].strip()), RedisClientKind.valueOf(cells[1].strip()),
                    Integer.parseInt(cells[2].strip()), Side.valueOf(cells[3].strip()), Long.parseLong(cells[4].strip()),
                    Double.parseDouble(cells[5]), Double.parseDouble(cells[6]), Double.parseDouble(cells[7]),
                    Double.parseDouble(cells[8]), Double.parseDouble(cells[9]));
        }
    }

    private Samples() {
    }

    /** Adds rows, writing the header first if the file is new: a run that stops keeps what it had. */
    static void append(Path folder, List<Row> rows) {
        Path file = folder.resolve(MEASURES);
        List<String> lines = new ArrayList<>();
        if (!Files.exists(file)) {
            lines.add(HEADER);
        }
        rows.forEach(row -> lines.add(row.line()));
        try {
            Files.createDirectories(folder);
            Files.write(file, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<Row> read(Path folder) throws IOException {
        return Files.readAllLines(folder.resolve(MEASURES), StandardCharsets.UTF_8).stream().skip(1)
                .filter(line -> !line.isBlank()).map(Row::parse).toList();
    }
}
