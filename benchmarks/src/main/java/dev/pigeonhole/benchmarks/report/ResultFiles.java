package dev.pigeonhole.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Reads what one run left behind: the JMH JSON, the redis-benchmark CSV of the send script at 1
 * and 8 clients, and the load generator's JSON files. Any of them may be absent or cut short: a
 * run is often partial (a benchmark not written yet, Redis not there), and a report that says
 * "not run" is more useful than none, so each problem becomes a warning the report prints.
 */
final class ResultFiles {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> warnings = new ArrayList<>();

    private ResultFiles() {
    }

    static RunResults read(Optional<Path> jmh, Optional<Path> evalsha1, Optional<Path> evalsha8, List<Path> loads) {
        ResultFiles files = new ResultFiles();
        List<JmhResult> jmhResults = jmh.flatMap(files::readJmh).orElse(List.of());
        Optional<RedisBenchmarkResult> oneClient = evalsha1.flatMap(files::readRedisBenchmark);
        Optional<RedisBenchmarkResult> eightClients = evalsha8.flatMap(files::readRedisBenchmark);
        List<LoadRun> loadRuns = loads.stream().map(files::readLoad).flatMap(Optional::stream).toList();
        return new RunResults(jmhResults, oneClient, eightClients, loadRuns, List.copyOf(files.warnings));
    }

    private Optional<List<JmhResult>> readJmh(Path file) {
        if (!Files.isRegularFile(file)) {
            warnings.add("JMH results " + file + " not found: every JMH row shows \"not run\".");
            return Optional.empty();
        }
        try {
            JsonNode root = JSON.readTree(file.toFile());
            List<JmhResult> read = new ArrayList<>();
            for (JsonNode node : root.values()) {
                read.add(JmhResult.from(node));
            }
            return Optional.of(read);
        } catch (RuntimeException e) {
            // A JMH run killed half way leaves a truncated file; report it rather than fail the whole report.
            warnings.add("JMH results " + file + " could not be read (" + e.getMessage() + ").");
            return Optional.empty();
        }
    }

    private Optional<RedisBenchmarkResult> readRedisBenchmark(Path file) {
        if (!Files.isRegularFile(file)) {
            warnings.add("redis-benchmark output " + file + " not found.");
            return Optional.empty();
        }
        try {
            Optional<RedisBenchmarkResult> parsed = RedisBenchmarkResult.parse(Files.readAllLines(file));
            if (parsed.isEmpty()) {
                warnings.add("redis-benchmark output " + file + " holds no result line.");
            }
            return parsed;
        } catch (IOException e) {
            warnings.add("redis-benchmark output " + file + " could not be read: " + e.getMessage());
            return Optional.empty();
        }
    }

    private Optional<LoadRun> readLoad(Path file) {
        if (!Files.isRegularFile(file)) {
            warnings.add("load result " + file + " not found.");
            return Optional.empty();
        }
        try {
            JsonNode json = JSON.readTree(file.toFile());
            String fallback = file.getFileName().toString().replaceFirst("\\.json$", "");
            return Optional.of(new LoadRun(json.path("label").asString(fallback), json));
        } catch (RuntimeException e) {
            warnings.add("load result " + file + " could not be read (" + e.getMessage() + ").");
            return Optional.empty();
        }
    }
}
