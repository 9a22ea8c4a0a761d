package dev.pigeonhole.benchmarks.floors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayTest {

    private static final Call OPEN = new Call("chat_open", List.of("p:chat:{opened-0}:members", "p:chat:{opened-0}:ids"),
            List.of("opened-0", "alice", "{\"type\":\"message\",\"chat\":\"opened-0\""),
            List.of("FCALL", "chat_open_v1", "2", "p:chat:{opened-0}:members", "p:chat:{opened-0}:ids", "opened-0",
                    "alice", "{\"type\":\"message\",\"chat\":\"opened-0\""));

    @Test
    void a_varying_id_is_made_random_wherever_it_occurs_keys_and_arguments_alike() {
        Replay replay = Replay.varying("opened-0", 1_000_000_000);

        assertThat(replay.line(OPEN.commandLine())).containsExactly("FCALL", "chat_open_v1", "2",
                "p:chat:{opened-0__rand_int__}:members", "p:chat:{opened-0__rand_int__}:ids", "opened-0__rand_int__",
                "alice", "{\"type\":\"message\",\"chat\":\"opened-0__rand_int__\"");
        assertThat(replay.options()).containsExactly("-r", "1000000000");
    }

    @Test
    void a_line_as_recorded_is_repeated_unchanged_with_no_random_option() {
        assertThat(Replay.asRecorded().line(OPEN.commandLine())).isEqualTo(OPEN.commandLine());
        assertThat(Replay.asRecorded().options()).isEmpty();
    }

    @Test
    void a_drawn_line_has_twelve_digits_where_redis_benchmark_puts_its_random_number() {
        List<String> line = Replay.varying("opened-0", 1_000).line(OPEN.commandLine());

        assertThat(Replay.drawn(line, 42).get(3)).isEqualTo("p:chat:{opened-0000000000042}:members");
    }

    @Test
    void the_floor_of_a_call_takes_its_keys_and_arguments_under_the_floor_s_name() {
        assertThat(OPEN.floorCommandLine()).containsExactly("FCALL", "floor_chat_open", "2",
                "p:chat:{opened-0}:members", "p:chat:{opened-0}:ids", "opened-0", "alice",
                "{\"type\":\"message\",\"chat\":\"opened-0\"");
    }

    @Test
    void an_operation_s_calls_are_grouped_by_script_in_order_each_weighed_by_how_often_it_comes() {
        Call index = new Call("index_add", List.of("p:user:{bob}:chats"), List.of("opened-0", "7"), List.of("FCALL"));

        assertThat(Capacity.lines(List.of(OPEN, index, index, index)))
                .containsExactly(new Capacity.Line(OPEN, 1), new Capacity.Line(index, 3));
    }

    @Test
    void an_operation_of_several_calls_is_as_fast_as_the_sum_of_their_costs_allows() {
        Call index = new Call("index_add", List.of("k"), List.of(), List.of("FCALL"));
        List<Capacity.Line> lines = List.of(new Capacity.Line(OPEN, 1), new Capacity.Line(index, 3));

        // 1/20 000 s for the open and 3/60 000 s for its index steps: 1/10 000 s an operation.
        assertThat(Capacity.composed(lines, List.of(20_000.0, 60_000.0), 1)).isCloseTo(10_000, within(1e-6));
        // Per chat for an operation over 100 chats.
        assertThat(Capacity.composed(List.of(new Capacity.Line(OPEN, 1)), List.of(500.0), 100))
                .isCloseTo(50_000, within(1e-6));
    }
}
