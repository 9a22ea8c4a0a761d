package dev.pigeonhole.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Reads what one run of {@code benchmarks/run.sh} left in its results folder:
 * <pre>
 * jmh.json                      the catalog: one JMH run of every benchmark, for the tables
 * rounds/N/jmh-*.json           round N of the ratio phase: its JMH runs,
 * rounds/N/fcall-KIND-*.csv     redis-benchmark of the send function (KIND c1, c8, c50-P16), before and after JMH,
 * rounds/N/ping-WHEN.csv        redis-benchmark -c 1 PING, the loopback round trip, before and after the pending run,
 * rounds/N/load-STORE.json      the load generator against each store's server,
 * rounds/N/fanout-STORE.json    its fan-out scenario (100 sockets in one chat) against the same server,
 * rounds/N/http-STORE.json      and the HTTP send rate on each
 * connections-N.json            the many-live-connections benchmark with N sockets, one file per N run
 * floors.json                   each Redis operation beside its floor, which {@link FloorsSection} reads itself
 * </pre>
 * Any of them may be absent or cut short: a run is often partial (a benchmark not written yet,
 * PostgreSQL not installed), and a report that says "not run" is more useful than none, so each
 * problem becomes a warning the report prints.
 */
final class ResultFiles {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CONNECTIONS = Pattern.compile("connections-(\\d{1,7})\\.json");

    private final List<String> warnings = new ArrayList<>();

    private ResultFiles() {
    }

    static RunResults read(Path folder) {
        ResultFiles files = new ResultFiles();
        Path catalogFile = folder.resolve("jmh.json");
        JmhResults catalog;
        if (Files.isRegularFile(catalogFile)) {
            catalog = files.readJmh(catalogFile).map(JmhResults::new).orElse(JmhResults.NONE);
        } else {
            files.warnings.add("JMH catalog " + catalogFile + " not found: the tables show only what the rounds measured.");
            catalog = JmhResults.NONE;
        }
        List<Round> rounds = files.readRounds(folder.resolve("rounds"));
        Map<Integer, JsonNode> connections = files.readConnections(folder);
        return new RunResults(catalog, rounds, connections, List.copyOf(files.warnings));
    }

    /** Every connections-N.json in the folder, by N, smallest first. */
    private Map<Integer, JsonNode> readConnections(Path folder) {
        Map<Integer, JsonNode> byN = new TreeMap<>();
        if (!Files.isDirectory(folder)) {
            return byN;
        }
        for (Path file : sortedFiles(folder)) {
            Matcher name = CONNECTIONS.matcher(file.getFileName().toString());
            if (name.matches()) {
                readJson(file).ifPresent(json -> byN.put(Integer.parseInt(name.group(1)), json));
            }
        }
        return byN;
    }

    private List<Round> readRounds(Path folder) {
        if (!Files.isDirectory(folder)) {
            warnings.add("no rounds in " + folder + ": every target shows \"not run\".");
            return List.of();
        }
        List<Path> numbered;
        try (Stream<Path> entries = Files.list(folder)) {
            numbered = entries.filter(Files::isDirectory).filter(p -> p.getFileName().toString().matches("\\d+"))
                    .sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString()))).toList();
        } catch (IOException e) {
            warnings.add("rounds in " + folder + " could not be listed: " + e.getMessage());
            return List.of();
        }
        return numbered.stream().map(this::readRound).toList();
    }

    private Round readRound(Path folder) {
        int number = Integer.parseInt(folder.getFileName().toString());
        List<JmhResult> jmh = new ArrayList<>();
        Map<String, List<RedisBenchmarkResult>> redisBenchmark = new TreeMap<>();
        Map<String, LoadRun> loads = new LinkedHashMap<>();
        Map<String, LoadRun> fanOut = new LinkedHashMap<>();
        Map<String, LoadRun> http = new LinkedHashMap<>();
        for (Path file : sortedFiles(folder)) {
            String name = file.getFileName().toString();
            if (name.startsWith("jmh") && name.endsWith(".json")) {
                readJmh(file).ifPresent(jmh::addAll);
            } else if (name.startsWith("fcall-") && name.endsWith(".csv")) {
                // fcall-KIND-WHEN.csv: the kind is everything between the prefix and the last dash.
                String stem = name.substring("fcall-".length(), name.length() - ".csv".length());
                String kind = stem.contains("-") ? stem.substring(0, stem.lastIndexOf('-')) : stem;
                readRedisBenchmark(file).ifPresent(r -> redisBenchmark.computeIfAbsent(kind, k -> new ArrayList<>()).add(r));
            } else if (name.startsWith("ping-") && name.endsWith(".csv")) {
                // ping-WHEN.csv: a kind of its own for each, since before and after are shown apart.
                String kind = name.substring(0, name.length() - ".csv".length());
                readRedisBenchmark(file).ifPresent(r -> redisBenchmark.computeIfAbsent(kind, k -> new ArrayList<>()).add(r));
            } else if (name.startsWith("load-") && name.endsWith(".json")) {
                readRun(file, "load-").ifPresent(run -> loads.put(storeOf(name, "load-"), run));
            } else if (name.startsWith("fanout-") && name.endsWith(".json")) {
                readRun(file, "fanout-").ifPresent(run -> fanOut.put(storeOf(name, "fanout-"), run));
            } else if (name.startsWith("http-") && name.endsWith(".json")) {
                readRun(file, "http-").ifPresent(run -> http.put(storeOf(name, "http-"), run));
            }
        }
        return new Round(number, new JmhResults(List.copyOf(jmh)), redisBenchmark, loads, fanOut, http);
    }

    private List<Path> sortedFiles(Path folder) {
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            warnings.add("round " + folder + " could not be listed: " + e.getMessage());
            return List.of();
        }
    }

    private static String storeOf(String fileName, String prefix) {
        return fileName.substring(prefix.length(), fileName.length() - ".json".length());
    }

    private Optional<List<JmhResult>> readJmh(Path file) {
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

    /** A load generator's or HTTP send rate's JSON, labelled with its own label or else its file's store. */
    private Optional<LoadRun> readRun(Path file, String prefix) {
        return readJson(file).map(json -> new LoadRun(json.path("label").asString(storeOf(file.getFileName().toString(),
                prefix)), json));
    }

    private Optional<JsonNode> readJson(Path file) {
        try {
            return Optional.of(JSON.readTree(file.toFile()));
        } catch (RuntimeException e) {
            warnings.add(file + " could not be read (" + e.getMessage() + ").");
            return Optional.empty();
        }
    }
}
