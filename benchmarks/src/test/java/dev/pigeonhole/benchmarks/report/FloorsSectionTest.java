package dev.pigeonhole.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

class FloorsSectionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** As FloorsBenchmark writes it: three rounds of four operations. */
    private static final String FLOORS = """
            {"redisVersion": "7.0.15", "scriptCommand": "FCALL", "capacityOptions": "-c 50 -P 16", "rounds": 3,
             "calls": 10000, "durationSeconds": 150.4, "operations": [
              {"name": "send", "chatsPerOperation": 1, "operations": 10000, "callsPerOperation": 1.0,
               "floor": "chat_send: INCR, ZADD, PUBLISH", "capacityRequests": 20000, "capacitySkipped": null,
               "rounds": [
                 {"round": 1, "oursMicros": 15.0, "floorMicros": 5.0, "oursPerSecond": 50000, "floorPerSecond": 120000},
                 {"round": 2, "oursMicros": 16.0, "floorMicros": 5.0, "oursPerSecond": 48000, "floorPerSecond": 120000},
                 {"round": 3, "oursMicros": 14.0, "floorMicros": 5.0, "oursPerSecond": 52000, "floorPerSecond": 130000}]},
              {"name": "presence touch", "chatsPerOperation": 1, "operations": 10000, "callsPerOperation": 1.0,
               "floor": "presence_touch: ZSCORE, ZADD GT", "capacityRequests": 50000, "capacitySkipped": null,
               "rounds": [
                 {"round": 1, "oursMicros": 2.8, "floorMicros": 2.0, "oursPerSecond": 150000, "floorPerSecond": 170000},
                 {"round": 2, "oursMicros": 2.9, "floorMicros": 2.0, "oursPerSecond": 160000, "floorPerSecond": 170000},
                 {"round": 3, "oursMicros": 2.6, "floorMicros": 2.0, "oursPerSecond": 140000, "floorPerSecond": 168000}]},
              {"name": "quota take", "chatsPerOperation": 1, "operations": 10000, "callsPerOperation": 1.0,
               "floor": "quota_take: TIME, GET, SET PXAT", "capacityRequests": 30000, "capacitySkipped": null,
               "rounds": [
                 {"round": 1, "oursMicros": 3.2, "floorMicros": 2.0, "oursPerSecond": 60000, "floorPerSecond": 66000},
                 {"round": 2, "oursMicros": 2.8, "floorMicros": 2.0, "oursPerSecond": 61000, "floorPerSecond": 60000},
                 {"round": 3, "oursMicros": 3.0, "floorMicros": 2.0, "oursPerSecond": 59000, "floorPerSecond": 62000}]},
              {"name": "leave", "chatsPerOperation": 1, "operations": 5000, "callsPerOperation": 2.0,
               "floor": "chat_leave: ZREM members, ZREM joined; index_remove: ZREM", "capacityRequests": 0,
               "capacitySkipped": "a leave needs a member still in",
               "rounds": [
                 {"round": 1, "oursMicros": 15.5, "floorMicros": 3.6, "oursPerSecond": null, "floorPerSecond": null}]}
             ]}
            """;

    @Test
    void each_operation_shows_its_spread_beside_its_floor_s_and_the_ratio_round_by_round() {
        String md = FloorsSection.markdown(floors());

        assertThat(md).contains("| send | 1 | chat_send: INCR, ZADD, PUBLISH | 14.0 µs – 16.0 µs | 5.00 µs "
                + "| 3.00× · 3.20× · 2.80× | 2.80× – 3.20× (3 rounds) | **missed** (best round -87%) |");
        assertThat(md).contains("| leave | 2 | chat_leave: ZREM members, ZREM joined; index_remove: ZREM | 15.5 µs "
                + "| 3.60 µs | 4.31× | 4.31× (1 round) | **missed** (best round -187%) |");
    }

    @Test
    void within_the_bound_is_met_only_when_the_whole_spread_clears_it() {
        String md = FloorsSection.markdown(floors());

        // 1.40, 1.45 and 1.30: every round within 1.5×, the worst by 3%.
        assertThat(md).contains("| presence touch | 1 | presence_touch: ZSCORE, ZADD GT | 2.60 µs – 2.90 µs | 2.00 µs "
                + "| 1.40× · 1.45× · 1.30× | 1.30× – 1.45× (3 rounds) | **met** (worst round +3%) |");
        // 1.60, 1.40 and 1.50: one round over the bound, so no verdict either way.
        assertThat(md).contains("| 1.60× · 1.40× · 1.50× | 1.40× – 1.60× (3 rounds) | **undecided** (rounds from -7% "
                + "to +7%) |");
    }

    @Test
    void capacity_compares_costs_so_a_floor_twice_as_fast_is_a_ratio_of_two() {
        String md = FloorsSection.markdown(floors());

        assertThat(md).contains("| send | 48,000/s – 52,000/s | 120,000/s – 130,000/s | 2.40× · 2.50× · 2.50× "
                + "| 2.40× – 2.50× (3 rounds) | **missed** (best round -60%) |");
        // A floor slower than ours in a round reads below 1×.
        assertThat(md).contains("| quota take | 59,000/s – 61,000/s | 60,000/s – 66,000/s | 1.10× · 0.98× · 1.05× ");
    }

    @Test
    void an_operation_whose_replay_means_nothing_says_why_instead_of_a_number() {
        assertThat(FloorsSection.markdown(floors())).contains("| leave | not replayed: a leave needs a member still in "
                + "| — | — | — | not run |");
    }

    @Test
    void the_section_says_how_the_run_was_made() {
        assertThat(FloorsSection.markdown(floors())).contains("Redis (7.0.15) in 3 rounds")
                .contains("The adapter calls its functions with `FCALL`")
                .contains("redis-benchmark `-c 50 -P 16`")
                .contains("each run 20,000 to 50,000 requests");
    }

    @Test
    void a_run_without_the_floors_phase_says_so_and_how_to_run_it(@TempDir Path results) {
        assertThat(FloorsSection.markdown(results)).startsWith("## Inside Redis: each operation beside its floor")
                .contains("not run").contains("benchmarks/run.sh --floors").doesNotContain("| Operation |");
    }

    private static JsonNode floors() {
        return JSON.readTree(FLOORS);
    }
}
