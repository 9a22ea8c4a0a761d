package dev.pigeonhole.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** redis-benchmark's summary of one test: requests per second and, when it prints them, latencies. */
public record RedisBenchmarkResult(double rps, OptionalDouble p50Millis, OptionalDouble p99Millis) {

    /**
     * redis-benchmark 7's --csv prints a header ("test","rps","avg_latency_ms",...,"p50_latency_ms",
     * ...,"p99_latency_ms",...) then one line per test. Older versions print only "test","rps" with no
     * header, so columns are found by name when there is a header and by position otherwise.
     */
    public static Optional<RedisBenchmarkResult> parse(List<String> lines) {
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
                // The test name is the command line, and the send function's arguments hold JSON with
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
            return Optional.of(new RedisBenchmarkResult(rps.getAsDouble(), column(header, cells, "p50_latency_ms"),
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
}
