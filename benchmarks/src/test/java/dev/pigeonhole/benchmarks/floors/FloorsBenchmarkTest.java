package dev.pigeonhole.benchmarks.floors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.testsupport.CiPolicy;
import dev.pigeonhole.testsupport.Programs;
import dev.pigeonhole.testsupport.redis.LocalRedisServer;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One tiny round of the floors benchmark against a redis-server of the test's own (no other
 * client may run scripts on it while a count is taken): an operation whose capacity is replayed,
 * one of several calls, and one that is not replayed.
 */
class FloorsBenchmarkTest {

    @Test
    void a_tiny_round_measures_each_operation_and_its_floor_and_leaves_nothing_behind(@TempDir Path folder)
            throws Exception {
        if (Programs.find(List.of("redis-benchmark"), List.of()).isEmpty()) {
            CiPolicy.unavailable("No redis-benchmark on the PATH for the floors' capacity: install Redis's tools");
        }
        try (LocalRedisServer redis = LocalRedisServer.start()) {
            URI url = URI.create("redis://127.0.0.1:" + redis.port());
            FloorsBenchmark.Options options = new FloorsBenchmark.Options(folder.resolve("floors.json"), 1, 200, 0.01,
                    Pattern.compile("^(presence|open|leave)$"));

            FloorsBenchmark.Result result = FloorsBenchmark.run(url, options);

            assertThat(result.operations()).extracting(FloorsBenchmark.Operation::name)
                    .containsExactly("open (3 members)", "leave", "presence touch");
            FloorsBenchmark.Operation open = result.operations().getFirst();
            // The open's own script, then the creator's and both others' index steps.
            assertThat(open.callsPerOperation()).isEqualTo(4.0);
            assertThat(open.floor()).startsWith("chat_open: ZADD (every member), INCR, ZADD, PUBLISH; index_add ×3: ");
            for (FloorsBenchmark.Operation operation : result.operations()) {
                FloorsBenchmark.RoundSample round = operation.rounds().getFirst();
                assertThat(round.oursMicros()).as(operation.name()).isPositive();
                assertThat(round.floorMicros()).as(operation.name()).isPositive();
                boolean replayed = operation.capacitySkipped() == null;
                assertThat(round.oursPerSecond() != null && round.oursPerSecond() > 0).as(operation.name())
                        .isEqualTo(replayed);
                assertThat(round.floorPerSecond() != null && round.floorPerSecond() > 0).as(operation.name())
                        .isEqualTo(replayed);
            }
            assertThat(result.operations().get(1).capacitySkipped()).startsWith("a leave needs a member still in");
            // Every key wiped, and the floors library taken away again.
            assertThat(redis.target().admin("DBSIZE")).isEqualTo("0");
            assertThat(redis.target().admin("FUNCTION", "LIST")).doesNotContain("pigeonhole_floors");
        }
    }
}
