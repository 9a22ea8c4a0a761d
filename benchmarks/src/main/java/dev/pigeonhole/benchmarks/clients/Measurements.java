package dev.pigeonhole.benchmarks.clients;

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
 * The files the client comparison leaves in its folder, and their one format, which the
 * comparison writes and the report reads: {@value #MEASURES} (a row per round, client and measure),
 * {@value #VERSIONS} (a row per client) and {@value #SETTINGS} (how the run was made).
 */
public final class Measurements {

    public static final String FOLDER = "clients";
    public static final String MEASURES = "measures.csv";
    public static final String VERSIONS = "versions.csv";
    public static final String SETTINGS = "settings.properties";

    static final String MEASURES_HEADER = "round,client,measure,value";
    static final String VERSIONS_HEADER = "client,version,transport";

    /** What a row measured; its name is the {@code measure} column. */
    public enum Measure {
        SEND_OPS_1, SEND_OPS_8, SEND_OPS_64,
        PENDING_OPS_1, PENDING_OPS_8, PENDING_OPS_64,
        LATENCY_P50_MICROS, LATENCY_P99_MICROS, LATENCY_P999_MICROS,
        /** The fixed rate's sends that started late by more than a millisecond, in percent: the harness's own lag. */
        LATENCY_LATE_START_PERCENT,
        SEND_BYTES_PER_OP, PENDING_BYTES_PER_OP,
        CONNECTIONS_IDLE, CONNECTIONS_BUSY,
        CPU_MICROS_PER_OP
    }

    /**
     * One figure. {@code round} is the comparison's round, except for the bytes per operation,
     * which one JMH fork per client measures after the rounds: there it is the fork's
     * measurement iteration.
     */
    public record Row(int round, RedisClientKind client, Measure measure, double value) {

        String line() {
            return round + "," + client + "," + measure + "," + String.format(Locale.ROOT, "%.3f", value);
        }

        static Row parse(String line) {
            String[] cells = line.split(",", -1);
            if (cells.length != 4) {
                throw new IllegalArgumentException("not round,client,measure,value: " + line);
            }
            return new Row(Integer.parseInt(cells[0].strip()), RedisClientKind.valueOf(cells[1].strip()),
                    Measure.valueOf(cells[2].strip()), Double.parseDouble(cells[3].strip()));
        }
    }

    /** A client's version and how it reaches Redis, as read from the classpath at run time. */
    public record Version(String client, String version, String transport) {

        String line() {
            // the transport is the last field: it may hold commas, the others may not
            return client + "," + version.replace(",", ";") + "," + transport;
        }

        static Version parse(String line) {
            String[] cells = line.split(",", 3);
            if (cells.length != 3) {
                throw new IllegalArgumentException("not client,version,transport: " + line);
            }
            return new Version(cells[0].strip(), cells[1].strip(), cells[2].strip());
        }
    }

    private Measurements() {
    }

    /** Adds rows to the measures file, writing its header first if it is new: a run that stops keeps what it had. */
    static void append(Path folder, List<Row> rows) {
        List<String> lines = new ArrayList<>();
        Path file = folder.resolve(MEASURES);
        if (!Files.exists(file)) {
            lines.add(MEASURES_HEADER);
        }
        rows.forEach(row -> lines.add(row.line()));
        write(file, lines, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static void writeVersions(Path folder, List<Version> versions) {
        List<String> lines = new ArrayList<>(List.of(VERSIONS_HEADER));
        versions.forEach(version -> lines.add(version.line()));
        write(folder.resolve(VERSIONS), lines, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    public static List<Row> readRows(Path folder) throws IOException {
        return data(folder.resolve(MEASURES)).stream().map(Row::parse).toList();
    }

    public static List<Version> readVersions(Path folder) throws IOException {
        Path file = folder.resolve(VERSIONS);
        return Files.exists(file) ? data(file).stream().map(Version::parse).toList() : List.of();
    }

    /** The lines after the header, blank ones left out. */
    private static List<String> data(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return lines.stream().skip(1).filter(line -> !line.isBlank()).toList();
    }

    private static void write(Path file, List<String> lines, StandardOpenOption... options) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, lines, StandardCharsets.UTF_8, options);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
