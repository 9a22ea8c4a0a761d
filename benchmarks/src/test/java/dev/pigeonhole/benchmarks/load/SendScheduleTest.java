package dev.pigeonhole.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The load generator's pacing and recording on a clock the test moves by hand: no server, no sleeping. */
class SendScheduleTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** A nanoTime that moves only when told to. */
    private long now;

    @Test
    void a_send_that_started_late_is_recorded_with_its_lateness_included() {
        SendSchedule schedule = new SendSchedule(0, 10 * MS, 0, 10);

        // Send 3 is due at 30 ms; its HTTP call only starts at 80 ms, and its message is on the
        // socket 1 ms after that. Timed from its start it would read 1 ms, as if nothing had happened.
        schedule.started(3, 80 * MS);
        assertThat(schedule.arrived(3, 81 * MS, 1)).isTrue();

        Histogram latency = schedule.latency();
        assertThat(latency.getTotalCount()).isEqualTo(1);
        assertThat((double) latency.getMaxValue()).isCloseTo(51_000, withinPercentage(0.1));
        assertThat((double) schedule.startLag().getMaxValue()).isCloseTo(50_000, withinPercentage(0.1));
    }

    @Test
    void a_pacer_held_up_sends_what_it_owes_at_once_and_each_of_those_counts_from_its_own_due_time() {
        SendSchedule schedule = new SendSchedule(0, 10 * MS, 0, 8);
        Map<Long, Long> issuedAt = new LinkedHashMap<>();

        schedule.pace(() -> now, nanos -> now += nanos, seq -> {
            issuedAt.put(seq, now);
            if (seq == 2) {
                now += 45 * MS; // the pacer's thread stalls (a pause, a full executor) just after send 2
            }
        });

        // Nothing skipped, nothing sent early; 3 to 6 fell due during the stall and leave at once.
        assertThat(issuedAt).containsExactly(Map.entry(0L, 0L), Map.entry(1L, 10 * MS), Map.entry(2L, 20 * MS),
                Map.entry(3L, 65 * MS), Map.entry(4L, 65 * MS), Map.entry(5L, 65 * MS), Map.entry(6L, 65 * MS),
                Map.entry(7L, 70 * MS));
        // Each one starts and is delivered 2 ms after it was issued.
        issuedAt.forEach((seq, at) -> {
            schedule.started(seq, at);
            schedule.arrived(seq, at + 2 * MS, 1);
        });
        Histogram latency = schedule.latency();
        assertThat(latency.getTotalCount()).isEqualTo(8);
        // Send 3 waited 35 ms for the pacer: 37 ms, the worst; send 6, due at 60 ms, 7 ms.
        assertThat((double) latency.getMaxValue()).isCloseTo(37_000, withinPercentage(0.1));
        assertThat(latency.getCountBetweenValues(2_000, 2_010)).as("the sends on time").isEqualTo(4);
        assertThat(latency.getCountBetweenValues(6_990, 37_100)).as("the sends held up").isEqualTo(4);
    }

    @Test
    void warm_up_sends_are_paced_but_recorded_nowhere_and_the_last_socket_counts_once_per_message() {
        SendSchedule schedule = new SendSchedule(1_000 * MS, 5 * MS, 2, 4);
        List<Long> issued = new ArrayList<>();
        now = 1_000 * MS;
        schedule.pace(() -> now, nanos -> now += nanos, issued::add);

        assertThat(issued).containsExactly(0L, 1L, 2L, 3L);
        assertThat(schedule.measuredFrom()).isEqualTo(1_010 * MS);
        schedule.started(1, 1_005 * MS);
        assertThat(schedule.arrived(1, 1_006 * MS, 3)).as("a warm-up send").isFalse();
        assertThat(schedule.arrived(9, 1_006 * MS, 3)).as("not a send of this run").isFalse();
        // Send 2, due at 1 010 ms, reaches its chat's 3 sockets at 1 013, 1 014 and 1 020 ms.
        for (long at : new long[] {1_013, 1_014, 1_020}) {
            assertThat(schedule.arrived(2, at * MS, 3)).isTrue();
        }

        assertThat(schedule.latency().getTotalCount()).isEqualTo(3);
        assertThat(schedule.startLag().getTotalCount()).isZero();
        Histogram lastSocket = schedule.lastSocket();
        assertThat(lastSocket.getTotalCount()).isEqualTo(1);
        assertThat((double) lastSocket.getMaxValue()).isCloseTo(10_000, withinPercentage(0.1));
    }
}
