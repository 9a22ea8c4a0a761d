package dev.pigeonhole.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pigeonhole.benchmarks.Backend;
import dev.pigeonhole.benchmarks.report.Ratio.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pending target modelled by round trip, on made-up rounds: ours 3 round trips, the book's
 * 205 at K = 100, the loopback round trip r the mean of the PING runs before and after.
 */
class RoundTripModelTest {

    private static final String MEASURED = " pending+ack ÷ book fetch, K=100, at the measured loopback round trip";
    private static final String MODELLED = " pending+ack ÷ book fetch, K=100, modelled at a 0.5 ms round trip";

    @Test
    void each_side_s_round_trips_come_out_at_the_measured_round_trip_and_go_back_in_at_the_modelled_one() {
        // Ours 250/s (4 000 µs), the book's 160/s (6 250 µs); PING at 50 000/s and 25 000/s: r = 30 µs.
        RoundTripModel.Model model = RoundTripModel.of(round(1, 250, 160, 50_000, 25_000), Backend.JEDIS).orElseThrow();

        assertThat(model.roundTripMicros()).isCloseTo(30, within(1e-9));
        assertThat(model.ours().outsideMicros(30)).isCloseTo(4_000 - 3 * 30, within(1e-9));
        assertThat(model.book().outsideMicros(30)).isCloseTo(6_250 - 205 * 30, within(1e-9));
        assertThat(model.measuredRatio()).isCloseTo(250.0 / 160, within(1e-9));
        // At 0.5 ms: the book 100 + 205 × 500 µs, ours 3 910 + 3 × 500 µs.
        assertThat(model.ratioAt(500)).isCloseTo(102_600.0 / 5_410, within(1e-9));
        assertThat(model.ratioAt(100)).isCloseTo(20_600.0 / 4_210, within(1e-9));
        assertThat(model.ratioAt(1_000)).isCloseTo(205_100.0 / 6_910, within(1e-9));
        assertThat(model.oursOpsAt(500) / model.bookOpsAt(500)).isCloseTo(model.ratioAt(500), within(1e-9));
    }

    @Test
    void a_side_whose_round_trips_exceed_its_measured_time_is_modelled_as_round_trips_alone() {
        // The book's 200/s is 5 000 µs, less than 205 round trips of 30 µs: nothing is left outside.
        RoundTripModel.Model model = RoundTripModel.of(round(1, 250, 200, 50_000, 25_000), Backend.JEDIS).orElseThrow();

        assertThat(model.book().outsideMicros(30)).isNegative();
        assertThat(model.ratioAt(500)).isCloseTo(205 * 500.0 / 5_410, within(1e-9));
        StringBuilder md = new StringBuilder();
        RoundTripModel.section(md, run(round(1, 250, 200, 50_000, 25_000)));
        assertThat(md.toString()).contains("| 1 | Jedis | 20.0 µs / 40.0 µs | 4.00 ms, 3.91 ms | 5.00 ms, 0* | 1.25× "
                + "| 4.87× | 18.95× | 29.67× |");
    }

    @Test
    void one_round_trip_measured_is_enough_and_none_leaves_the_model_and_its_target_not_run() {
        Round onlyBefore = round(1, 250, 160, 50_000, 0);
        Round none = round(2, 250, 160, 0, 0);

        assertThat(RoundTripModel.of(onlyBefore, Backend.JEDIS).orElseThrow().roundTripMicros()).isCloseTo(20, within(1e-9));
        assertThat(RoundTripModel.of(none, Backend.JEDIS)).isEmpty();
        Map<String, Ratio> targets = byName(Targets.of(run(none)));
        assertThat(targets.get("Jedis" + MODELLED).verdict()).isEqualTo(Verdict.NOT_RUN);
        assertThat(targets.get("Jedis" + MEASURED).values()).containsExactly(250.0 / 160);
        StringBuilder md = new StringBuilder();
        RoundTripModel.section(md, run(none));
        assertThat(md.toString()).contains("| — | — | not run |");
    }

    @Test
    void the_modelled_target_is_met_only_when_every_round_clears_twenty_at_half_a_millisecond() {
        // Round 1: 102 600 ÷ 5 410 µs = 18.96×. Round 2, ours at 400/s: 102 600 ÷ 3 910 µs = 26.2×.
        Round below = round(1, 250, 160, 50_000, 25_000);
        Round above = round(2, 400, 160, 50_000, 25_000);

        Ratio straddling = byName(Targets.of(run(below, above))).get("Jedis" + MODELLED);
        Ratio clearing = byName(Targets.of(run(above))).get("Jedis" + MODELLED);

        assertThat(straddling.targetText()).isEqualTo("≥ 20×");
        assertThat(straddling.values()).hasSize(2);
        assertThat(straddling.values().get(0)).isCloseTo(102_600.0 / 5_410, within(1e-9));
        assertThat(straddling.values().get(1)).isCloseTo(102_600.0 / (2_500 - 90 + 1_500), within(1e-9));
        assertThat(straddling.verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(clearing.verdict()).isEqualTo(Verdict.MET);
        Ratio measured = byName(Targets.of(run(below, above))).get("Jedis" + MEASURED);
        assertThat(measured.verdictText()).isEqualTo("**missed** (best round -17%)");
    }

    @Test
    void the_round_trips_run_sh_measures_around_the_pending_run_reach_the_page(@TempDir Path results) throws IOException {
        Path round = Files.createDirectories(results.resolve("rounds/1"));
        String header = "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\","
                + "\"p99_latency_ms\",\"max_latency_ms\"\n";
        Files.writeString(round.resolve("ping-before.csv"),
                header + "\"PING\",\"50000.00\",\"0.018\",\"0.008\",\"0.015\",\"0.023\",\"0.023\",\"2.783\"\n");
        Files.writeString(round.resolve("ping-after.csv"),
                header + "\"PING\",\"25000.00\",\"0.037\",\"0.008\",\"0.023\",\"0.063\",\"0.215\",\"4.503\"\n");
        Files.writeString(round.resolve("jmh-pending.json"), "[" + jmh("PendingBenchmark.pendingAndAcknowledge",
                "{\"backend\":\"JEDIS\",\"chats\":\"100\"}", 250) + ","
                + jmh("baseline.BookFetchBenchmark.fetchPendingMessages", "{\"chats\":\"100\"}", 160) + "]");

        RunResults run = ResultFiles.read(results);
        StringBuilder md = new StringBuilder();
        RoundTripModel.section(md, run);

        assertThat(run.rounds().getFirst().roundTripMicros(Round.ROUND_TRIP_BEFORE)).hasValue(20.0);
        assertThat(run.rounds().getFirst().roundTripMicros(Round.ROUND_TRIP_AFTER)).hasValue(40.0);
        assertThat(md.toString())
                .contains("o = t − n × r", "t(R) = o + n × R", "t_book(R) ÷ t_ours(R)", "2K + 5 = 205")
                .contains("| 1 | Jedis | 20.0 µs / 40.0 µs | 4.00 ms, 3.91 ms | 6.25 ms, 100.0 µs | 1.56× | 4.89× "
                        + "| 18.96× | 29.68× |");
        // The send targets' redis-benchmark figures are not mixed with the round trips.
        assertThat(run.rounds().getFirst().redisBenchmark(Round.ONE_CLIENT)).isEmpty();
    }

    /** A round with ours (Jedis) and the book at K = 100 and PING before and after (0: not run). */
    private static Round round(int number, double ours, double book, double pingBefore, double pingAfter) {
        List<JmhResult> jmh = List.of(
                throughput("PendingBenchmark", "pendingAndAcknowledge", Map.of("backend", "JEDIS", "chats", "100"), ours),
                throughput("BookFetchBenchmark", "fetchPendingMessages", Map.of("chats", "100"), book));
        Map<String, List<RedisBenchmarkResult>> pings = new java.util.TreeMap<>();
        if (pingBefore > 0) {
            pings.put(Round.ROUND_TRIP_BEFORE, List.of(rps(pingBefore)));
        }
        if (pingAfter > 0) {
            pings.put(Round.ROUND_TRIP_AFTER, List.of(rps(pingAfter)));
        }
        return new Round(number, new JmhResults(jmh), pings, Map.of(), Map.of(), Map.of());
    }

    private static RunResults run(Round... rounds) {
        return new RunResults(JmhResults.NONE, List.of(rounds), Map.of(), List.of());
    }

    private static RedisBenchmarkResult rps(double rps) {
        return new RedisBenchmarkResult(rps, OptionalDouble.empty(), OptionalDouble.empty());
    }

    private static JmhResult throughput(String className, String method, Map<String, String> params, double ops) {
        return new JmhResult(className, method, "thrpt", 1, params, ops, Double.NaN, Map.of(), OptionalDouble.empty());
    }

    private static String jmh(String benchmark, String params, double opsPerSecond) {
        return "{\"benchmark\":\"dev.pigeonhole.benchmarks." + benchmark + "\",\"mode\":\"thrpt\",\"threads\":1,"
                + "\"params\":" + params + ",\"primaryMetric\":{\"score\":" + opsPerSecond
                + ",\"scoreError\":1.0,\"scoreUnit\":\"ops/s\"},\"secondaryMetrics\":{}}";
    }

    private static Map<String, Ratio> byName(List<Ratio> ratios) {
        Map<String, Ratio> byName = new java.util.LinkedHashMap<>();
        new ArrayList<>(ratios).forEach(ratio -> byName.put(ratio.name(), ratio));
        return byName;
    }
}
