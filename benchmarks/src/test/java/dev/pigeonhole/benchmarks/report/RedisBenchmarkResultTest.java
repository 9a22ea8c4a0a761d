package dev.pigeonhole.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RedisBenchmarkResultTest {

    @Test
    void the_numbers_are_found_by_column_name_even_when_the_command_line_holds_commas_and_quotes() {
        List<String> csv = List.of(
                "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\",\"p99_latency_ms\",\"max_latency_ms\"",
                "\"FCALL chat_send_v1 5 k alice \"sender\":\"alice\",\"body\":\"hi\"} 10000\",\"5619.04\",\"0.170\",\"0.056\",\"0.167\",\"0.247\",\"0.431\",\"3.103\"");

        assertThat(RedisBenchmarkResult.parse(csv)).hasValueSatisfying(result -> {
            assertThat(result.rps()).isEqualTo(5619.04);
            assertThat(result.p50Millis()).hasValue(0.167);
            assertThat(result.p99Millis()).hasValue(0.431);
        });
    }

    @Test
    void a_floor_s_line_with_spaces_json_and_random_ids_in_its_arguments_still_gives_its_numbers() {
        List<String> csv = List.of(
                "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\",\"p99_latency_ms\",\"max_latency_ms\"",
                "\"FCALL floor_chat_send 9 p:chat:{chat}:members alice alice idem-0__rand_int__ {\"type\":\"message\","
                        + "\"chat\":\"chat\",\"message\":{\"id\":\",\"42449.04\",\"17.921\",\"0.296\",\"17.503\",\"25.263\","
                        + "\"28.543\",\"33.055\"");

        assertThat(RedisBenchmarkResult.parse(csv)).hasValueSatisfying(result -> {
            assertThat(result.rps()).isEqualTo(42449.04);
            assertThat(result.p99Millis()).hasValue(28.543);
        });
    }

    @Test
    void a_run_too_short_to_time_gives_no_rate() {
        // redis-benchmark prints "inf" when every request finished within its clock's resolution.
        assertThat(RedisBenchmarkResult.parse(List.of("\"test\",\"rps\",\"avg_latency_ms\"",
                "\"SET k v\",\"inf\",\"0.054\""))).isEmpty();
    }

    @Test
    void an_older_redis_benchmark_without_a_header_gives_requests_per_second_alone() {
        assertThat(RedisBenchmarkResult.parse(List.of("\"FCALL\",\"5619.04\""))).hasValueSatisfying(result -> {
            assertThat(result.rps()).isEqualTo(5619.04);
            assertThat(result.p50Millis()).isEmpty();
        });
    }

    @Test
    void output_without_a_result_line_gives_nothing() {
        assertThat(RedisBenchmarkResult.parse(List.of("\"test\",\"rps\"", "ERROR: connection refused"))).isEmpty();
    }
}
