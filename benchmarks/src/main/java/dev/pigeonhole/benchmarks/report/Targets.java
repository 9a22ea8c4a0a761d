package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.Backend.IN_MEMORY;
import static dev.pigeonhole.benchmarks.Backend.JEDIS;
import static dev.pigeonhole.benchmarks.Backend.LETTUCE;
import static dev.pigeonhole.benchmarks.report.JmhResults.score;
import static dev.pigeonhole.benchmarks.report.RunResults.ON_CLUSTER;
import static dev.pigeonhole.benchmarks.report.RunResults.ON_REDIS;

import dev.pigeonhole.benchmarks.Backend;
import dev.pigeonhole.benchmarks.report.Ratio.Kind;
import dev.pigeonhole.benchmarks.report.Ratio.Side;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The targets a run is held to (issue 14's among them), each a {@link Ratio} whose two sides come
 * from the same round of the ratio phase, so that both were measured minutes apart at most,
 * under the same load on the machine.
 */
final class Targets {

    /** The callers counts ManyCallersBenchmark runs with. */
    static final List<Integer> MANY_CALLERS = List.of(64, 256);
    /** The end-to-end stores held against memory, by the label run.sh gives their runs. */
    static final Map<String, String> HTTP_ON_REDIS = Map.of("jedis", "Jedis", "lettuce", "Lettuce");

    private Targets() {
    }

    static List<Ratio> of(RunResults run) {
        List<Round> rounds = run.rounds();
        List<Ratio> ratios = new ArrayList<>();
        for (Backend backend : ON_REDIS) {
            ratios.add(ratio(Formats.name(backend) + " pending+ack, K=100 ÷ book fetch, K=100", 20, rounds,
                    r -> score(r.jmh().pending(backend, 100)), r -> score(r.jmh().bookFetch(backend, 100))));
        }
        for (Backend backend : ON_CLUSTER) {
            // The book's fetch has no cluster form: its single-node figure, measured in the same JMH run, is the bar.
            ratios.add(ratio(Formats.name(backend) + " pending+ack, K=100 ÷ book fetch on one node, K=100", 10, rounds,
                    r -> score(r.jmh().pending(backend, 100)), r -> score(r.jmh().bookFetch(JEDIS, 100))));
        }
        ratios.add(ratio("Lettuce send, 1 thread ÷ Jedis send, 1 thread", 0.8, rounds,
                r -> score(r.jmh().send(LETTUCE, 1)), r -> score(r.jmh().send(JEDIS, 1))));
        for (int callers : MANY_CALLERS) {
            ratios.add(ratio("Lettuce send, " + callers + " callers ÷ redis-benchmark EVALSHA -c 50 -P 16", 0.6, rounds,
                    r -> score(r.jmh().manyCallers(LETTUCE, callers)), r -> r.redisBenchmarkRps(Round.PIPELINED)));
        }
        for (Backend backend : ON_REDIS) {
            String name = Formats.name(backend);
            ratios.add(ratio(name + " send, 1 thread ÷ redis-benchmark EVALSHA, 1 client", 0.85, rounds,
                    r -> score(r.jmh().send(backend, 1)), r -> r.redisBenchmarkRps(Round.ONE_CLIENT)));
            ratios.add(ratio(name + " send, 1 thread ÷ book send, 1 thread", 4, rounds,
                    r -> score(r.jmh().send(backend, 1)), r -> score(r.jmh().bookSend(backend, 1))));
        }
        for (Backend backend : ON_REDIS) {
            String name = Formats.name(backend);
            ratios.add(ratio(name + " send, 8 threads ÷ redis-benchmark EVALSHA, 8 clients", 0.8, rounds,
                    r -> score(r.jmh().send(backend, 8)), r -> r.redisBenchmarkRps(Round.EIGHT_CLIENTS)));
            ratios.add(ratio(name + " send, 8 threads ÷ book send, 8 threads", 15, rounds,
                    r -> score(r.jmh().send(backend, 8)), r -> score(r.jmh().bookSend(backend, 8))));
        }
        // The virtual-thread variant is how Lettuce is meant to be driven; shown when it was run.
        Optional<String> virtual = rounds.stream().map(r -> r.jmh().lettuceVirtual()).flatMap(Optional::stream)
                .map(JmhResult::method).findFirst();
        virtual.ifPresent(method -> {
            ratios.add(ratio("Lettuce send, virtual threads (" + method + ") ÷ redis-benchmark EVALSHA, 8 clients", 0.8,
                    rounds, r -> score(r.jmh().lettuceVirtual()), r -> r.redisBenchmarkRps(Round.EIGHT_CLIENTS)));
            ratios.add(ratio("Lettuce send, virtual threads (" + method + ") ÷ book send, 8 threads", 15, rounds,
                    r -> score(r.jmh().lettuceVirtual()), r -> score(r.jmh().bookSend(LETTUCE, 8))));
        });
        ratios.add(new Ratio("In-memory send, 1 thread", Kind.AT_LEAST_OPS, 3_000_000, rounds.stream()
                .map(r -> Side.absolute(r.number(), score(r.jmh().send(IN_MEMORY, 1)))).toList()));
        for (String store : List.of("jedis", "lettuce")) {
            ratios.add(ratio("HTTP sends/s on Redis (" + HTTP_ON_REDIS.get(store) + ") ÷ on memory", 0.6, rounds,
                    r -> r.http(store, "sendsPerSecond"), r -> r.http("memory", "sendsPerSecond")));
        }
        for (String store : List.of("memory", "jedis", "lettuce")) {
            ratios.add(new Ratio("Fan-out to 100 sockets, delivery p99 (" + store + ")", Kind.AT_MOST_MILLIS, 10,
                    rounds.stream().map(r -> Side.absolute(r.number(),
                            r.load(store).map(l -> fanOutP99Millis(l.json())).orElse(OptionalDouble.empty()))).toList()));
        }
        return ratios;
    }

    /**
     * The fan-out scenario's p99, in milliseconds, from a load result that ran it: its
     * {@code fanOut} object (any capitalisation) with {@code latencyMicros.p99} in microseconds.
     */
    static OptionalDouble fanOutP99Millis(JsonNode load) {
        for (Map.Entry<String, JsonNode> field : load.properties()) {
            if (field.getKey().equalsIgnoreCase("fanOut") || field.getKey().equalsIgnoreCase("fan-out")) {
                JsonNode p99 = field.getValue().path("latencyMicros").path("p99");
                return p99.isNumber() ? OptionalDouble.of(p99.asDouble() / 1000) : OptionalDouble.empty();
            }
        }
        return OptionalDouble.empty();
    }

    private static Ratio ratio(String name, double target, List<Round> rounds, Function<Round, OptionalDouble> ours,
                               Function<Round, OptionalDouble> baseline) {
        return new Ratio(name, Kind.RATIO, target,
                rounds.stream().map(r -> new Side(r.number(), ours.apply(r), baseline.apply(r))).toList());
    }
}
