package dev.pigeonhole.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.benchmarks.Backend;
import dev.pigeonhole.benchmarks.report.Ratio.Kind;
import dev.pigeonhole.benchmarks.report.Ratio.Side;
import dev.pigeonhole.benchmarks.report.Ratio.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

class TargetsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void a_target_is_met_only_when_every_round_clears_it_and_says_by_how_much_the_worst_did() {
        Ratio ratio = ratio(4, side(1, 5_000, 1_000), side(2, 4_400, 1_000), side(3, 6_000, 1_000));

        assertThat(ratio.values()).containsExactly(5.0, 4.4, 6.0);
        assertThat(ratio.verdict()).isEqualTo(Verdict.MET);
        assertThat(ratio.spreadText()).isEqualTo("4.40× – 6.00× (3 rounds)");
        assertThat(ratio.verdictText()).isEqualTo("**met** (worst round +10%)");
    }

    @Test
    void a_spread_that_straddles_the_target_is_undecided_however_good_its_best_round() {
        Ratio ratio = ratio(0.8, side(1, 900, 1_000), side(2, 700, 1_000), side(3, 1_200, 1_000));

        assertThat(ratio.verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(ratio.verdictText()).isEqualTo("**undecided** (rounds from -13% to +50%)");
    }

    @Test
    void a_target_no_round_reaches_is_missed_by_the_best_round_s_shortfall() {
        Ratio ratio = ratio(20, side(1, 53.5, 45.44), side(2, 50, 45), side(3, 60, 40));

        assertThat(ratio.verdict()).isEqualTo(Verdict.MISSED);
        assertThat(ratio.verdictText()).isEqualTo("**missed** (best round -93%)");
    }

    @Test
    void exactly_on_target_clears_it() {
        Ratio ratio = ratio(0.8, side(1, 800, 1_000), side(2, 1_600, 2_000), side(3, 80, 100));

        assertThat(ratio.verdict()).isEqualTo(Verdict.MET);
        assertThat(ratio.verdictText()).isEqualTo("**met** (worst round +0%)");
    }

    @Test
    void a_round_with_a_side_missing_is_left_out_of_the_spread_and_the_verdict() {
        Ratio ratio = ratio(4, side(1, 5_000, 1_000), new Side(2, OptionalDouble.of(1_000), OptionalDouble.empty()));

        assertThat(ratio.values()).containsExactly(5.0);
        assertThat(ratio.roundText(ratio.rounds().get(1))).isEqualTo("—");
        assertThat(ratio.spreadText()).isEqualTo("5.00× (1 round)");
        assertThat(ratio.verdict()).isEqualTo(Verdict.MET);
    }

    @Test
    void with_no_round_measured_the_target_is_not_run_and_says_which_side_is_missing() {
        Ratio noOurs = ratio(4, new Side(1, OptionalDouble.empty(), OptionalDouble.of(1_000)));
        Ratio noBaseline = ratio(4, new Side(1, OptionalDouble.of(5_000), OptionalDouble.empty()));
        Ratio zeroBaseline = ratio(4, side(1, 5_000, 0));
        Ratio noRounds = ratio(4);

        assertThat(noOurs.verdict()).isEqualTo(Verdict.NOT_RUN);
        assertThat(noOurs.spreadText()).isEqualTo("not run");
        assertThat(noOurs.verdictText()).isEqualTo("not run (ours missing)");
        assertThat(noBaseline.verdictText()).isEqualTo("not run (baseline missing)");
        assertThat(zeroBaseline.verdict()).isEqualTo(Verdict.NOT_RUN);
        assertThat(noRounds.verdictText()).isEqualTo("not run (ours missing)");
    }

    @Test
    void an_absolute_floor_is_held_against_ours_alone() {
        Ratio ratio = new Ratio("In-memory send", Kind.AT_LEAST_OPS, 3_000_000, List.of(
                Side.absolute(1, OptionalDouble.of(3_645_718)), Side.absolute(2, OptionalDouble.of(3_300_000))));

        assertThat(ratio.targetText()).isEqualTo("≥ 3,000,000 ops/s");
        assertThat(ratio.roundText(ratio.rounds().getFirst())).isEqualTo("3,645,718 ops/s");
        assertThat(ratio.verdictText()).isEqualTo("**met** (worst round +10%)");
    }

    @Test
    void an_absolute_ceiling_is_met_below_it_and_its_worst_round_is_the_highest() {
        Ratio met = ceiling(10, 4, 8);
        Ratio undecided = ceiling(10, 8, 12.5);
        Ratio missed = ceiling(10, 11, 20);

        assertThat(met.targetText()).isEqualTo("≤ 10 ms");
        assertThat(met.verdictText()).isEqualTo("**met** (worst round +20%)");
        assertThat(undecided.verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(undecided.spreadText()).isEqualTo("8.00 ms – 12.50 ms (2 rounds)");
        assertThat(missed.verdictText()).isEqualTo("**missed** (best round -10%)");
    }

    @Test
    void each_send_target_divides_by_the_redis_benchmark_figure_of_its_own_round_the_mean_of_before_and_after() {
        RunResults run = run(
                round(1, List.of(throughput("SendBenchmark", "send", 1, Map.of("backend", "JEDIS"), 6_000),
                                throughput("SendBenchmark", "send", 1, Map.of("backend", "LETTUCE"), 4_800),
                                throughput("BookSendBenchmark", "send", 1, Map.of(), 1_000)),
                        Map.of(Round.ONE_CLIENT, List.of(redisBenchmark(4_000), redisBenchmark(6_000)))),
                round(2, List.of(throughput("SendBenchmark", "send", 1, Map.of("backend", "JEDIS"), 3_000),
                                throughput("SendBenchmark", "send", 1, Map.of("backend", "LETTUCE"), 2_000)),
                        Map.of(Round.ONE_CLIENT, List.of(redisBenchmark(2_500)))));

        Map<String, Ratio> targets = byName(Targets.of(run));

        assertThat(targets.get("Jedis send, 1 thread ÷ redis-benchmark FCALL, 1 client").values())
                .containsExactly(1.2, 1.2);
        assertThat(targets.get("Lettuce send, 1 thread ÷ Jedis send, 1 thread").values()).containsExactly(0.8, 2.0 / 3);
        assertThat(targets.get("Lettuce send, 1 thread ÷ Jedis send, 1 thread").verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(targets.get("Jedis send, 1 thread ÷ book send, 1 thread").values()).containsExactly(6.0);
        assertThat(targets.get("Jedis send, 8 threads ÷ book send, 8 threads").verdictText())
                .isEqualTo("not run (ours missing)");
    }

    @Test
    void pending_on_one_node_and_on_the_cluster_is_held_against_the_single_node_book_fetch_of_the_same_round() {
        RunResults run = run(round(1, List.of(
                throughput("PendingBenchmark", "pendingAndAcknowledge", 1, Map.of("backend", "JEDIS", "chats", "100"), 1_000),
                throughput("PendingBenchmark", "pendingAndAcknowledge", 1, Map.of("backend", "LETTUCE", "chats", "100"), 800),
                throughput("PendingBenchmark", "pendingAndAcknowledge", 1,
                        Map.of("backend", "JEDIS_CLUSTER", "chats", "100"), 500),
                throughput("BookFetchBenchmark", "fetchPendingMessages", 1, Map.of("chats", "100"), 40)), Map.of()));

        Map<String, Ratio> targets = byName(Targets.of(run));

        Ratio jedis = targets.get("Jedis pending+ack ÷ book fetch, K=100, at the measured loopback round trip");
        assertThat(jedis.targetText()).isEqualTo("≥ 3×");
        assertThat(jedis.verdictText()).isEqualTo("**met** (worst round +733%)");
        assertThat(targets.get("Lettuce pending+ack ÷ book fetch, K=100, at the measured loopback round trip").values())
                .containsExactly(20.0);
        Ratio cluster = targets.get("Jedis, 3-master cluster pending+ack, K=100 ÷ book fetch on one node, K=100");
        assertThat(cluster.targetText()).isEqualTo("≥ 10×");
        assertThat(cluster.values()).containsExactly(12.5);
        assertThat(targets.get("Lettuce, 3-master cluster pending+ack, K=100 ÷ book fetch on one node, K=100").verdict())
                .isEqualTo(Verdict.NOT_RUN);
    }

    @Test
    void many_callers_are_not_run_until_their_benchmark_is_and_then_meet_the_pipelined_redis_benchmark() {
        Map<String, List<RedisBenchmarkResult>> pipelined = Map.of(Round.PIPELINED, List.of(redisBenchmark(100_000)));
        Map<String, Ratio> absent = byName(Targets.of(run(round(1, List.of(), pipelined))));
        Map<String, Ratio> present = byName(Targets.of(run(round(1, List.of(
                throughput("ManyCallersBenchmark", "send", 1, Map.of("backend", "LETTUCE", "callers", "64"), 70_000),
                throughput("ManyCallersBenchmark", "send", 1, Map.of("backend", "LETTUCE", "callers", "256"), 50_000)),
                pipelined))));

        String name64 = "Lettuce send, 64 callers ÷ redis-benchmark FCALL -c 50 -P 16";
        String name256 = "Lettuce send, 256 callers ÷ redis-benchmark FCALL -c 50 -P 16";
        assertThat(absent.get(name64).verdictText()).isEqualTo("not run (ours missing)");
        assertThat(present.get(name64).verdict()).isEqualTo(Verdict.MET);
        assertThat(present.get(name256).verdict()).isEqualTo(Verdict.MISSED);
    }

    @Test
    void http_sends_on_redis_are_held_against_memory_in_the_same_round() {
        Round first = new Round(1, JmhResults.NONE, Map.of(), Map.of(), Map.of(),
                Map.of("memory", load("memory", "{\"sendsPerSecond\":2000}"),
                        "jedis", load("jedis", "{\"sendsPerSecond\":1400}"),
                        "lettuce", load("lettuce", "{\"sendsPerSecond\":1000}")));
        Round second = new Round(2, JmhResults.NONE, Map.of(), Map.of(), Map.of(),
                Map.of("memory", load("memory", "{\"sendsPerSecond\":1000}"),
                        "jedis", load("jedis", "{\"sendsPerSecond\":650}"),
                        "lettuce", load("lettuce", "{\"sendsPerSecond\":500}")));

        Map<String, Ratio> targets = byName(Targets.of(run(first, second)));

        assertThat(targets.get("HTTP sends/s on Redis (Jedis) ÷ on memory").values()).containsExactly(0.7, 0.65);
        assertThat(targets.get("HTTP sends/s on Redis (Jedis) ÷ on memory").verdict()).isEqualTo(Verdict.MET);
        assertThat(targets.get("HTTP sends/s on Redis (Lettuce) ÷ on memory").verdict()).isEqualTo(Verdict.MISSED);
    }

    @Test
    void fan_out_holds_the_last_socket_p99_of_each_round_s_fan_out_run_against_ten_milliseconds() {
        // The chats scenario's run has a last-socket figure too: it must not stand in for the fan-out's.
        LoadRun chats = load("memory", lastSocket("chats", 20, 1_000));
        Round first = new Round(1, JmhResults.NONE, Map.of(), Map.of("memory", chats),
                Map.of("memory", load("memory", lastSocket("fanout", 400, 4_000)),
                        "jedis", load("jedis", lastSocket("fanout", 400, 9_500)),
                        "lettuce", load("lettuce", lastSocket("fanout", 0, 0))),
                Map.of());
        Round second = new Round(2, JmhResults.NONE, Map.of(), Map.of("memory", chats),
                Map.of("memory", load("memory", lastSocket("fanout", 400, 12_000)),
                        "jedis", load("jedis", lastSocket("fanout", 400, 8_000))),
                Map.of());

        Map<String, Ratio> targets = byName(Targets.of(run(first, second)));

        Ratio memory = targets.get("Fan-out to 100 sockets at 100 msg/s, send to last socket p99 (memory)");
        assertThat(memory.values()).containsExactly(4.0, 12.0);
        assertThat(memory.verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(targets.get("Fan-out to 100 sockets at 100 msg/s, send to last socket p99 (jedis)").verdictText())
                .isEqualTo("**met** (worst round +5%)");
        // A run that measured no message has no p99: not run, rather than a p99 of 0 that would pass.
        assertThat(targets.get("Fan-out to 100 sockets at 100 msg/s, send to last socket p99 (lettuce)").verdictText())
                .isEqualTo("not run (ours missing)");
    }

    @Test
    void many_connections_are_held_against_the_largest_n_run() {
        Map<Integer, JsonNode> byN = new TreeMap<>(Map.of(
                1_000, JSON.readTree("""
                        {"sockets":1000,"chatMembers":999,"connectsPerSecondFirst100":100,"connectsPerSecondLast":10,
                         "rssBytesPerIdleSocket":1000000,"lastOfChatMillis":900}"""),
                5_000, JSON.readTree("""
                        {"sockets":5000,"chatMembers":999,"connectsPerSecondFirst100":1000,"connectsPerSecondLast":850,
                         "rssBytesPerIdleSocket":70000,"lastOfChatMillis":null}""")));

        Map<String, Ratio> targets = byName(Targets.connections(byN));

        assertThat(targets.get("Connects/s, last stretch ÷ first 100 at N = 5,000").values()).containsExactly(0.85);
        assertThat(targets.get("Connects/s, last stretch ÷ first 100 at N = 5,000").verdict()).isEqualTo(Verdict.MET);
        assertThat(targets.get("Connects/s, last stretch at N = 5,000").verdict()).isEqualTo(Verdict.MET);
        Ratio memory = targets.get("Server resident memory per idle socket at N = 5,000");
        assertThat(memory.targetText()).isEqualTo("≤ 65,536 B");
        assertThat(memory.verdict()).isEqualTo(Verdict.MISSED);
        assertThat(targets.get("One message to the last socket of the 999-member chat, median at N = 5,000").verdict())
                .isEqualTo(Verdict.NOT_RUN);
        assertThat(Targets.connections(Map.of())).isEmpty();
    }

    @Test
    void postgresql_results_stand_beside_the_redis_clients_without_a_target_of_their_own() {
        RunResults run = run(round(1, List.of(
                throughput("SendBenchmark", "send", 1, Map.of("backend", "POSTGRES"), 9_000),
                throughput("SendBenchmark", "send", 1, Map.of("backend", "JEDIS"), 6_000),
                throughput("PendingBenchmark", "pendingAndAcknowledge", 1, Map.of("backend", "POSTGRES", "chats", "100"), 90),
                throughput("MailboxBenchmark", "deliverReadAndAcknowledge", 1, Map.of("backend", "POSTGRES"), 700),
                throughput("BookSendBenchmark", "send", 1, Map.of(), 1_000)), Map.of()));

        Map<String, Ratio> targets = byName(Targets.of(run));

        assertThat(targets).noneSatisfy((name, ratio) -> assertThat(name).containsIgnoringCase("postgres"));
        assertThat(targets.get("Jedis send, 1 thread ÷ book send, 1 thread").values()).containsExactly(6.0);
        assertThat(run.tables().of("MailboxBenchmark", Backend.POSTGRES)).map(JmhResult::score).hasValue(700.0);
        assertThat(run.tables().of("MailboxBenchmark", Backend.JEDIS)).isEmpty();
    }

    @Test
    void the_tables_take_the_catalog_and_fill_what_it_lacks_with_the_median_of_the_rounds() {
        JmhResult catalogJedis = throughput("SendBenchmark", "send", 1, Map.of("backend", "JEDIS"), 5_000);
        RunResults run = new RunResults(new JmhResults(List.of(catalogJedis)), List.of(
                round(1, List.of(throughput("SendBenchmark", "send", 1, Map.of("backend", "JEDIS"), 9_000),
                        throughput("SendBenchmark", "send", 1, Map.of("backend", "LETTUCE"), 3_000)), Map.of()),
                round(2, List.of(throughput("SendBenchmark", "send", 1, Map.of("backend", "LETTUCE"), 1_000)), Map.of()),
                round(3, List.of(throughput("SendBenchmark", "send", 1, Map.of("backend", "LETTUCE"), 2_000)), Map.of())),
                Map.of(), List.of());

        assertThat(run.tables().send(Backend.JEDIS, 1)).hasValue(catalogJedis);
        assertThat(run.tables().send(Backend.LETTUCE, 1)).map(JmhResult::score).hasValue(2_000.0);
    }

    @Test
    void a_baseline_run_per_client_is_matched_to_that_client_and_one_run_once_stands_in_for_both() {
        List<JmhResult> results = new ArrayList<>(List.of(
                throughput("PendingBenchmark", "pendingAndAcknowledge", 1, Map.of("backend", "JEDIS", "chats", "100"), 60),
                throughput("PendingBenchmark", "pendingAndAcknowledge", 1, Map.of("backend", "LETTUCE", "chats", "100"), 40),
                throughput("BookFetchBenchmark", "fetchPendingMessages", 1, Map.of("chats", "100"), 20)));

        Map<String, Ratio> shared = byName(Targets.of(run(round(1, results, Map.of()))));
        results.add(throughput("BookFetchBenchmark", "fetchPendingMessages", 1, Map.of("client", "LETTUCE", "chats", "100"), 10));
        Map<String, Ratio> perClient = byName(Targets.of(run(round(1, results, Map.of()))));

        String measured = " pending+ack ÷ book fetch, K=100, at the measured loopback round trip";
        assertThat(shared.get("Lettuce" + measured).values()).containsExactly(2.0);
        assertThat(perClient.get("Jedis" + measured).values()).containsExactly(3.0);
        assertThat(perClient.get("Lettuce" + measured).values()).containsExactly(4.0);
    }

    private static Ratio ratio(double target, Side... rounds) {
        return new Ratio("r", Kind.RATIO, target, List.of(rounds));
    }

    private static Ratio ceiling(double millis, double... rounds) {
        List<Side> sides = new ArrayList<>();
        for (int i = 0; i < rounds.length; i++) {
            sides.add(Side.absolute(i + 1, OptionalDouble.of(rounds[i])));
        }
        return new Ratio("fan-out", Kind.AT_MOST_MILLIS, millis, sides);
    }

    private static Side side(int round, double ours, double baseline) {
        return new Side(round, OptionalDouble.of(ours), OptionalDouble.of(baseline));
    }

    private static Round round(int number, List<JmhResult> jmh, Map<String, List<RedisBenchmarkResult>> redisBenchmark) {
        return new Round(number, new JmhResults(List.copyOf(jmh)), redisBenchmark, Map.of(), Map.of(), Map.of());
    }

    private static RunResults run(Round... rounds) {
        return new RunResults(JmhResults.NONE, List.of(rounds), Map.of(), List.of());
    }

    private static RedisBenchmarkResult redisBenchmark(double rps) {
        return new RedisBenchmarkResult(rps, OptionalDouble.empty(), OptionalDouble.empty());
    }

    /** A load generator's JSON with only its scenario and last-socket figures, in microseconds. */
    private static String lastSocket(String scenario, long messages, long p99Micros) {
        return "{\"scenario\":\"" + scenario + "\",\"lastSocketLatencyMicros\":{\"messages\":" + messages
                + ",\"p99\":" + p99Micros + "}}";
    }

    private static LoadRun load(String label, String json) {
        return new LoadRun(label, JSON.readTree(json));
    }

    private static JmhResult throughput(String className, String method, int threads, Map<String, String> params,
                                        double opsPerSecond) {
        return new JmhResult(className, method, "thrpt", threads, params, opsPerSecond, Double.NaN, Map.of(),
                OptionalDouble.empty());
    }

    private static Map<String, Ratio> byName(List<Ratio> ratios) {
        Map<String, Ratio> byName = new LinkedHashMap<>();
        ratios.forEach(ratio -> byName.put(ratio.name(), ratio));
        return byName;
    }
}
