package dev.pigeonhole.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.benchmarks.Backend;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class TargetsTest {

    @Test
    void a_ratio_is_ours_over_the_baseline_and_says_by_how_much_it_clears_the_target() {
        Ratio ratio = new Ratio("send ÷ book send", "≥ 4×", 4, OptionalDouble.of(5_000), OptionalDouble.of(1_000), false);

        assertThat(ratio.measured()).hasValue(5.0);
        assertThat(ratio.measuredText()).isEqualTo("5.00×");
        assertThat(ratio.verdict()).isEqualTo("**pass** (+25% over target)");
    }

    @Test
    void a_ratio_under_its_target_is_a_miss_by_how_much() {
        Ratio ratio = new Ratio("pending ÷ book fetch", "≥ 20×", 20, OptionalDouble.of(53.5), OptionalDouble.of(45.44), false);

        assertThat(ratio.measuredText()).isEqualTo("1.18×");
        assertThat(ratio.verdict()).isEqualTo("**miss** (-94% under target)");
    }

    @Test
    void exactly_on_target_passes() {
        Ratio ratio = new Ratio("send ÷ redis-benchmark", "≥ 0.8×", 0.8, OptionalDouble.of(800), OptionalDouble.of(1_000), false);

        assertThat(ratio.verdict()).isEqualTo("**pass** (+0% over target)");
    }

    @Test
    void an_absolute_target_is_held_against_ours_alone() {
        Ratio ratio = new Ratio("In-memory send", "≥ 3,000,000 ops/s", 3_000_000, OptionalDouble.of(3_645_718),
                OptionalDouble.of(1), true);

        assertThat(ratio.measured()).hasValue(3_645_718);
        assertThat(ratio.measuredText()).isEqualTo("3,645,718 ops/s");
        assertThat(ratio.verdict()).isEqualTo("**pass** (+22% over target)");
    }

    @Test
    void a_side_that_was_not_run_leaves_the_ratio_unmeasured_and_says_which() {
        Ratio noOurs = new Ratio("r", "≥ 4×", 4, OptionalDouble.empty(), OptionalDouble.of(1_000), false);
        Ratio noBaseline = new Ratio("r", "≥ 4×", 4, OptionalDouble.of(5_000), OptionalDouble.empty(), false);
        Ratio zeroBaseline = new Ratio("r", "≥ 4×", 4, OptionalDouble.of(5_000), OptionalDouble.of(0), false);

        assertThat(noOurs.measured()).isEmpty();
        assertThat(noOurs.measuredText()).isEqualTo("not run");
        assertThat(noOurs.verdict()).isEqualTo("not run (ours missing)");
        assertThat(noBaseline.verdict()).isEqualTo("not run (baseline missing)");
        assertThat(zeroBaseline.measured()).isEmpty();
    }

    @Test
    void each_client_is_held_to_its_own_send_against_the_book_and_redis_benchmark() {
        RunResults run = run(List.of(
                        throughput("SendBenchmark", "send", 1, Map.of("backend", "JEDIS"), 6_000),
                        throughput("SendBenchmark", "send", 1, Map.of("backend", "LETTUCE"), 4_000),
                        throughput("SendBenchmark", "send", 1, Map.of("backend", "IN_MEMORY"), 2_000_000),
                        throughput("BookSendBenchmark", "send", 1, Map.of(), 1_000)),
                Optional.of(new RedisBenchmarkResult(5_000, OptionalDouble.empty(), OptionalDouble.empty())));

        Map<String, Ratio> targets = byName(Targets.of(run));

        assertThat(targets.get("Jedis send, 1 thread ÷ book send, 1 thread").measured()).hasValue(6.0);
        assertThat(targets.get("Lettuce send, 1 thread ÷ book send, 1 thread").measured()).hasValue(4.0);
        assertThat(targets.get("Jedis send, 1 thread ÷ redis-benchmark EVALSHA, 1 client").measured()).hasValue(1.2);
        assertThat(targets.get("Lettuce send, 1 thread ÷ redis-benchmark EVALSHA, 1 client").measured()).hasValue(0.8);
        assertThat(targets.get("In-memory send, 1 thread").verdict()).isEqualTo("**miss** (-33% under target)");
        assertThat(targets.get("Jedis send, 8 threads ÷ book send, 8 threads").verdict()).isEqualTo("not run (ours missing)");
    }

    @Test
    void a_baseline_run_per_client_is_matched_to_that_client_and_one_run_once_stands_in_for_both() {
        List<JmhResult> results = new ArrayList<>(List.of(
                throughput("PendingBenchmark", "pendingAndAcknowledge", 1, Map.of("backend", "JEDIS", "chats", "100"), 60),
                throughput("PendingBenchmark", "pendingAndAcknowledge", 1, Map.of("backend", "LETTUCE", "chats", "100"), 40),
                throughput("BookFetchBenchmark", "fetchPendingMessages", 1, Map.of("chats", "100"), 20)));

        Map<String, Ratio> shared = byName(Targets.of(run(results, Optional.empty())));
        results.add(throughput("BookFetchBenchmark", "fetchPendingMessages", 1, Map.of("client", "LETTUCE", "chats", "100"), 10));
        Map<String, Ratio> perClient = byName(Targets.of(run(results, Optional.empty())));

        assertThat(shared.get("Jedis pending+ack, K=100 ÷ book fetch, K=100").measured()).hasValue(3.0);
        assertThat(shared.get("Lettuce pending+ack, K=100 ÷ book fetch, K=100").measured()).hasValue(2.0);
        assertThat(perClient.get("Jedis pending+ack, K=100 ÷ book fetch, K=100").measured()).hasValue(3.0);
        assertThat(perClient.get("Lettuce pending+ack, K=100 ÷ book fetch, K=100").measured()).hasValue(4.0);
    }

    @Test
    void lettuce_on_virtual_threads_is_held_to_the_eight_client_targets_only_when_it_was_run() {
        List<JmhResult> results = new ArrayList<>(List.of(throughput("BookSendBenchmark", "send8", 8, Map.of(), 1_000)));
        assertThat(byName(Targets.of(run(results, Optional.empty())))).noneSatisfy((name, ratio) ->
                assertThat(name).contains("virtual"));

        results.add(throughput("SendBenchmark", "sendVirtual64", 1, Map.of("backend", "LETTUCE"), 30_000));
        Map<String, Ratio> targets = byName(Targets.of(run(results, Optional.empty())));

        assertThat(targets.get("Lettuce send, virtual threads (sendVirtual64) ÷ book send, 8 threads").measured())
                .hasValue(30.0);
        assertThat(targets.get("Lettuce send, virtual threads (sendVirtual64) ÷ redis-benchmark EVALSHA, 8 clients")
                .verdict()).isEqualTo("not run (baseline missing)");
    }

    @Test
    void postgresql_results_stand_beside_the_redis_clients_without_a_target_or_a_place_in_theirs() {
        RunResults run = run(List.of(
                        throughput("SendBenchmark", "send", 1, Map.of("backend", "POSTGRES"), 9_000),
                        throughput("SendBenchmark", "send", 1, Map.of("backend", "JEDIS"), 6_000),
                        throughput("PendingBenchmark", "pendingAndAcknowledge", 1, Map.of("backend", "POSTGRES", "chats", "100"), 90),
                        throughput("PendingBenchmark", "pendingAndAcknowledge", 1, Map.of("backend", "JEDIS", "chats", "100"), 60),
                        throughput("MailboxBenchmark", "deliverReadAndAcknowledge", 1, Map.of("backend", "POSTGRES"), 700),
                        throughput("BookSendBenchmark", "send", 1, Map.of(), 1_000),
                        throughput("BookFetchBenchmark", "fetchPendingMessages", 1, Map.of("chats", "100"), 20)),
                Optional.empty());

        Map<String, Ratio> targets = byName(Targets.of(run));

        assertThat(targets).noneSatisfy((name, ratio) -> assertThat(name).containsIgnoringCase("postgres"));
        assertThat(targets.get("Jedis send, 1 thread ÷ book send, 1 thread").measured()).hasValue(6.0);
        assertThat(targets.get("Jedis pending+ack, K=100 ÷ book fetch, K=100").measured()).hasValue(3.0);
        assertThat(run.of("MailboxBenchmark", Backend.POSTGRES)).map(JmhResult::score).hasValue(700.0);
        assertThat(run.of("MailboxBenchmark", Backend.JEDIS)).isEmpty();
    }

    private static RunResults run(List<JmhResult> jmh, Optional<RedisBenchmarkResult> evalsha1) {
        return new RunResults(List.copyOf(jmh), evalsha1, Optional.empty(), List.of(), List.of());
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
