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
import java.util.function.ToDoubleBiFunction;
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
    /** The stores the fan-out target holds to 10 ms: memory and Redis, by the label run.sh gives their runs. */
    static final List<String> FAN_OUT_STORES = List.of("memory", "jedis", "lettuce");

    private Targets() {
    }

    static List<Ratio> of(RunResults run) {
        List<Round> rounds = run.rounds();
        List<Ratio> ratios = new ArrayList<>();
        for (Backend backend : ON_REDIS) {
            // Measured on loopback, where a round trip costs tens of microseconds, the round trips
            // saved weigh little; modelled at a network's round trip, they decide (RoundTripModel).
            ratios.add(ratio(Formats.name(backend) + " pending+ack ÷ book fetch, K=100, at the measured loopback round trip",
                    3, rounds, r -> score(r.jmh().pending(backend, 100)), r -> score(r.jmh().bookFetch(backend, 100))));
            ratios.add(ratio(Formats.name(backend) + " pending+ack ÷ book fetch, K=100, modelled at a "
                            + RoundTripModel.millisText(RoundTripModel.TARGET_MICROS) + " round trip", 20, rounds,
                    r -> modelled(r, backend, RoundTripModel.Model::oursOpsAt),
                    r -> modelled(r, backend, RoundTripModel.Model::bookOpsAt)));
        }
        for (Backend backend : ON_CLUSTER) {
            // The book's fetch has no cluster form: its single-node figure, measured in the same JMH run, is the bar.
            ratios.add(ratio(Formats.name(backend) + " pending+ack, K=100 ÷ book fetch on one node, K=100", 10, rounds,
                    r -> score(r.jmh().pending(backend, 100)), r -> score(r.jmh().bookFetch(JEDIS, 100))));
        }
        ratios.add(ratio("Lettuce send, 1 thread ÷ Jedis send, 1 thread", 0.8, rounds,
                r -> score(r.jmh().send(LETTUCE, 1)), r -> score(r.jmh().send(JEDIS, 1))));
        for (int callers : MANY_CALLERS) {
            ratios.add(ratio("Lettuce send, " + callers + " callers ÷ redis-benchmark FCALL -c 50 -P 16", 0.6, rounds,
                    r -> score(r.jmh().manyCallers(LETTUCE, callers)), r -> r.redisBenchmarkRps(Round.PIPELINED)));
        }
        for (Backend backend : ON_REDIS) {
            String name = Formats.name(backend);
            ratios.add(ratio(name + " send, 1 thread ÷ redis-benchmark FCALL, 1 client", 0.85, rounds,
                    r -> score(r.jmh().send(backend, 1)), r -> r.redisBenchmarkRps(Round.ONE_CLIENT)));
            ratios.add(ratio(name + " send, 1 thread ÷ book send, 1 thread", 4, rounds,
                    r -> score(r.jmh().send(backend, 1)), r -> score(r.jmh().bookSend(backend, 1))));
        }
        for (Backend backend : ON_REDIS) {
            String name = Formats.name(backend);
            ratios.add(ratio(name + " send, 8 threads ÷ redis-benchmark FCALL, 8 clients", 0.8, rounds,
                    r -> score(r.jmh().send(backend, 8)), r -> r.redisBenchmarkRps(Round.EIGHT_CLIENTS)));
            ratios.add(ratio(name + " send, 8 threads ÷ book send, 8 threads", 15, rounds,
                    r -> score(r.jmh().send(backend, 8)), r -> score(r.jmh().bookSend(backend, 8))));
        }
        // The virtual-thread variant is how Lettuce is meant to be driven; shown when it was run.
        Optional<String> virtual = rounds.stream().map(r -> r.jmh().lettuceVirtual()).flatMap(Optional::stream)
                .map(JmhResult::method).findFirst();
        virtual.ifPresent(method -> {
            ratios.add(ratio("Lettuce send, virtual threads (" + method + ") ÷ redis-benchmark FCALL, 8 clients", 0.8,
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
        for (String store : FAN_OUT_STORES) {
            ratios.add(new Ratio("Fan-out to 100 sockets at 100 msg/s, send to last socket p99 (" + store + ")",
                    Kind.AT_MOST_MILLIS, 10, rounds.stream().map(r -> Side.absolute(r.number(),
                            r.fanOut(store).map(l -> fanOutP99Millis(l.json())).orElse(OptionalDouble.empty()))).toList()));
        }
        return ratios;
    }

    /**
     * The fan-out scenario's p99 from a message's send to its arrival on the last of the chat's
     * sockets, in milliseconds: the load generator's {@code lastSocketLatencyMicros.p99}, in
     * microseconds. Empty when the run measured no message (a server that delivered nothing has no
     * p99, not a p99 of 0).
     */
    static OptionalDouble fanOutP99Millis(JsonNode load) {
        JsonNode last = load.path("lastSocketLatencyMicros");
        JsonNode p99 = last.path("p99");
        if (!p99.isNumber() || last.path("messages").asLong(0) <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(p99.asDouble() / 1000);
    }

    /**
     * The many-live-connections targets, held against the run with the most sockets (N = 5 000 in
     * the full run): connects per second over the last stretch at least 0.8× the first 100's (the
     * rate does not fall as sockets pile up) and at least 500/s, at most 64 KiB of server memory
     * per idle socket, and the last socket of the large chat served within 50 ms. One run per N, so
     * each has one value, not a spread.
     */
    static List<Ratio> connections(Map<Integer, JsonNode> byN) {
        if (byN.isEmpty()) {
            return List.of();
        }
        int n = byN.keySet().stream().mapToInt(Integer::intValue).max().orElseThrow();
        JsonNode json = byN.get(n);
        String at = " at N = " + Formats.opsText(n);
        return List.of(
                new Ratio("Connects/s, last stretch ÷ first 100" + at, Kind.RATIO, 0.8,
                        List.of(new Side(1, number(json, "connectsPerSecondLast"), number(json, "connectsPerSecondFirst100")))),
                new Ratio("Connects/s, last stretch" + at, Kind.AT_LEAST_OPS, 500,
                        List.of(Side.absolute(1, number(json, "connectsPerSecondLast")))),
                new Ratio("Server resident memory per idle socket" + at, Kind.AT_MOST_BYTES, 65_536,
                        List.of(Side.absolute(1, number(json, "rssBytesPerIdleSocket")))),
                new Ratio("One message to the last socket of the " + json.path("chatMembers").asInt(999)
                        + "-member chat, median" + at, Kind.AT_MOST_MILLIS, 50,
                        List.of(Side.absolute(1, number(json, "lastOfChatMillis")))));
    }

    /** One side's operations per second at the target's round trip, as the round's model gives them. */
    private static OptionalDouble modelled(Round round, Backend backend, ToDoubleBiFunction<RoundTripModel.Model, Double> side) {
        return RoundTripModel.of(round, backend).map(m -> OptionalDouble.of(side.applyAsDouble(m,
                RoundTripModel.TARGET_MICROS))).orElse(OptionalDouble.empty());
    }

    private static OptionalDouble number(JsonNode json, String field) {
        JsonNode n = json.path(field);
        return n.isNumber() ? OptionalDouble.of(n.asDouble()) : OptionalDouble.empty();
    }

    private static Ratio ratio(String name, double target, List<Round> rounds, Function<Round, OptionalDouble> ours,
                               Function<Round, OptionalDouble> baseline) {
        return new Ratio(name, Kind.RATIO, target,
                rounds.stream().map(r -> new Side(r.number(), ours.apply(r), baseline.apply(r))).toList());
    }
}
