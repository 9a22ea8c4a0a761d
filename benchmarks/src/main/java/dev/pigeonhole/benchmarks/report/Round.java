package dev.pigeonhole.benchmarks.report;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One round of the ratio phase: every target's two sides measured back to back, so that a ratio
 * compares figures taken under the same load on the machine. {@code redisBenchmark} holds the
 * redis-benchmark runs by kind ({@value #ONE_CLIENT}, {@value #EIGHT_CLIENTS},
 * {@value #PIPELINED}), each usually run just before and just after its JMH side, and the
 * loopback round trip ({@value #ROUND_TRIP_BEFORE}, {@value #ROUND_TRIP_AFTER}: {@code PING} on
 * one client) just before and just after the pending run;
 * {@code loads}, {@code fanOut} and {@code http} hold the load generator's (its chats scenario and
 * its fan-out scenario, 100 sockets in one chat) and the HTTP send rate's results by store label
 * ({@code memory}, {@code jedis}, ...).
 */
record Round(int number, JmhResults jmh, Map<String, List<RedisBenchmarkResult>> redisBenchmark,
             Map<String, LoadRun> loads, Map<String, LoadRun> fanOut, Map<String, LoadRun> http) {

    static final String ONE_CLIENT = "c1";
    static final String EIGHT_CLIENTS = "c8";
    /** {@code redis-benchmark -c 50 -P 16}: as many sends in flight as Redis will take, the many-callers baseline. */
    static final String PIPELINED = "c50-P16";
    /** {@code redis-benchmark -c 1 PING} just before the pending run: the loopback round trip. */
    static final String ROUND_TRIP_BEFORE = "ping-before";
    /** The same just after it. */
    static final String ROUND_TRIP_AFTER = "ping-after";

    /** The mean of this kind's redis-benchmark runs in the round: the figure its JMH side sat between. */
    Optional<RedisBenchmarkResult> redisBenchmark(String kind) {
        List<RedisBenchmarkResult> runs = redisBenchmark.getOrDefault(kind, List.of());
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        double rps = runs.stream().mapToDouble(RedisBenchmarkResult::rps).average().orElseThrow();
        return Optional.of(new RedisBenchmarkResult(rps, mean(runs, RedisBenchmarkResult::p50Millis),
                mean(runs, RedisBenchmarkResult::p99Millis)));
    }

    OptionalDouble redisBenchmarkRps(String kind) {
        return redisBenchmark(kind).map(r -> OptionalDouble.of(r.rps())).orElse(OptionalDouble.empty());
    }

    /**
     * One loopback round trip in microseconds, from a one-client {@code PING} run
     * ({@link #ROUND_TRIP_BEFORE} or {@link #ROUND_TRIP_AFTER}): one client waits for each answer
     * before it asks again, so each request takes one round trip, and 1 / requests per second is
     * its time as a caller sees it.
     */
    OptionalDouble roundTripMicros(String when) {
        return redisBenchmark(when).filter(r -> r.rps() > 0).map(r -> OptionalDouble.of(1e6 / r.rps()))
                .orElse(OptionalDouble.empty());
    }

    /** A number field of the store's HTTP send-rate result, as {@code sendsPerSecond}. */
    OptionalDouble http(String label, String field) {
        return number(Optional.ofNullable(http.get(label)), field);
    }

    Optional<LoadRun> load(String label) {
        return Optional.ofNullable(loads.get(label));
    }

    /** The store's run of the load generator's fan-out scenario in this round, when there was one. */
    Optional<LoadRun> fanOut(String label) {
        return Optional.ofNullable(fanOut.get(label));
    }

    private static OptionalDouble number(Optional<LoadRun> run, String field) {
        return run.map(r -> r.json().path(field)).filter(n -> n.isNumber())
                .map(n -> OptionalDouble.of(n.asDouble())).orElse(OptionalDouble.empty());
    }

    private static OptionalDouble mean(List<RedisBenchmarkResult> runs,
                                       java.util.function.Function<RedisBenchmarkResult, OptionalDouble> field) {
        return runs.stream().map(field).filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble)
                .average();
    }
}
