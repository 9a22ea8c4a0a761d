package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.Backend.IN_MEMORY;
import static dev.pigeonhole.benchmarks.Backend.JEDIS;
import static dev.pigeonhole.benchmarks.Backend.JEDIS_CLUSTER;
import static dev.pigeonhole.benchmarks.Backend.LETTUCE;
import static dev.pigeonhole.benchmarks.Backend.LETTUCE_CLUSTER;
import static dev.pigeonhole.benchmarks.Backend.POSTGRES;

import dev.pigeonhole.benchmarks.Backend;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One run's results as read ({@link ResultFiles}), with what could not be read: the catalog (one
 * JMH run of every benchmark, for the tables), the rounds of the ratio phase (for the targets),
 * and the many-connections results by their number of sockets N, for each N that was run.
 */
record RunResults(JmhResults catalog, List<Round> rounds, Map<Integer, JsonNode> connections, List<String> warnings) {

    /** The backends the tables and charts show, in their order: the single nodes, then the 3-master cluster. */
    static final List<Backend> TABLED = List.of(IN_MEMORY, JEDIS, LETTUCE, POSTGRES, JEDIS_CLUSTER, LETTUCE_CLUSTER);
    /** Those of them that keep the data outside the JVM, which the send chart draws side by side. */
    static final List<Backend> DURABLE = List.of(JEDIS, LETTUCE, POSTGRES, JEDIS_CLUSTER, LETTUCE_CLUSTER);
    /** Those that run on a single Redis node, which the targets compare with redis-benchmark and the book. */
    static final List<Backend> ON_REDIS = List.of(JEDIS, LETTUCE);
    /** The same clients on the 3-master cluster. */
    static final List<Backend> ON_CLUSTER = List.of(JEDIS_CLUSTER, LETTUCE_CLUSTER);
    /** The stores the end-to-end runs label their results with, memory first: the baseline of the others. */
    static final List<String> STORES = List.of("memory", "jedis", "lettuce", "postgres");

    /** What the tables show: the catalog, with the rounds' median wherever the catalog has no result. */
    JmhResults tables() {
        return catalog.completedBy(rounds.stream().map(Round::jmh).toList());
    }

    /** The median redis-benchmark figure of a kind over the rounds, for the tables. */
    Optional<RedisBenchmarkResult> redisBenchmark(String kind) {
        List<RedisBenchmarkResult> each = rounds.stream().map(r -> r.redisBenchmark(kind)).flatMap(Optional::stream)
                .sorted(Comparator.comparingDouble(RedisBenchmarkResult::rps)).toList();
        return each.isEmpty() ? Optional.empty() : Optional.of(each.get((each.size() - 1) / 2));
    }

    /** Every end-to-end load run, round by round, labelled with its round when there are several. */
    List<LoadRun> loads() {
        List<LoadRun> all = new ArrayList<>();
        for (Round round : rounds) {
            for (LoadRun load : inStoreOrder(round.loads())) {
                all.add(rounds.size() > 1 ? new LoadRun(load.label() + ", round " + round.number(), load.json()) : load);
            }
        }
        return all;
    }

    /** A round's runs by store, memory first (the baseline), then the others in {@link #STORES} order. */
    private static List<LoadRun> inStoreOrder(Map<String, LoadRun> byStore) {
        List<LoadRun> ordered = new ArrayList<>();
        STORES.stream().filter(byStore::containsKey).forEach(store -> ordered.add(byStore.get(store)));
        byStore.forEach((store, run) -> {
            if (!STORES.contains(store)) {
                ordered.add(run);
            }
        });
        return ordered;
    }

    /** The last round's load runs: the servers are warmest then, so these draw the latency chart. */
    List<LoadRun> lastLoads() {
        return rounds.isEmpty() ? List.of() : inStoreOrder(rounds.getLast().loads());
    }
}
