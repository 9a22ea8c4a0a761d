package dev.pigeonhole.benchmarks.clients;

import static dev.pigeonhole.adapter.redis.RedisClientKind.GLIDE;
import static dev.pigeonhole.adapter.redis.RedisClientKind.JEDIS;
import static dev.pigeonhole.adapter.redis.RedisClientKind.LETTUCE;
import static dev.pigeonhole.adapter.redis.RedisClientKind.REDISSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.benchmarks.clients.Measurements.Measure;
import dev.pigeonhole.benchmarks.clients.Measurements.Row;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientComparisonTest {

    private static final List<RedisClientKind> FOUR = List.of(JEDIS, LETTUCE, REDISSON, GLIDE);

    @Test
    void roundsComeInPairsForwardThenBackAndEveryClientTakesEveryPlace() {
        assertThat(ClientComparison.order(FOUR, 1)).containsExactly(JEDIS, LETTUCE, REDISSON, GLIDE);
        assertThat(ClientComparison.order(FOUR, 2)).containsExactly(GLIDE, REDISSON, LETTUCE, JEDIS);
        assertThat(ClientComparison.order(FOUR, 3)).containsExactly(REDISSON, GLIDE, JEDIS, LETTUCE);
        assertThat(ClientComparison.order(FOUR, 4)).containsExactly(LETTUCE, JEDIS, GLIDE, REDISSON);
        assertThat(ClientComparison.order(FOUR, 5)).containsExactly(JEDIS, LETTUCE, REDISSON, GLIDE);
        assertThat(ClientComparison.order(List.of(JEDIS, LETTUCE), 2)).containsExactly(LETTUCE, JEDIS);
        assertThat(ClientComparison.order(List.of(JEDIS, LETTUCE), 3)).containsExactly(JEDIS, LETTUCE);
        assertThat(ClientComparison.order(List.of(JEDIS, LETTUCE, REDISSON), 3))
                .containsExactly(REDISSON, JEDIS, LETTUCE);
        assertThat(ClientComparison.order(List.of(), 2)).isEmpty();
    }

    @Test
    void rowsAppendedRoundByRoundReadBackAsWritten(@TempDir Path folder) throws IOException {
        Measurements.append(folder, List.of(new Row(1, JEDIS, Measure.SEND_OPS_1, 1234.5)));
        Measurements.append(folder, List.of(new Row(1, LETTUCE, Measure.CONNECTIONS_IDLE, 2)));

        assertThat(Measurements.readRows(folder)).containsExactly(new Row(1, JEDIS, Measure.SEND_OPS_1, 1234.5),
                new Row(1, LETTUCE, Measure.CONNECTIONS_IDLE, 2));
    }

    @Test
    void aTransportMayHoldCommas(@TempDir Path folder) throws IOException {
        Measurements.Version lettuce = new Measurements.Version("LETTUCE", "7.7.0.RELEASE", "Netty epoll, one connection");
        Measurements.writeVersions(folder, List.of(lettuce));

        assertThat(Measurements.readVersions(folder)).containsExactly(lettuce);
    }

    @Test
    void connectionsAreCountedByTheirExactName() {
        String clientList = """
                id=3 addr=127.0.0.1:50000 laddr=127.0.0.1:6379 fd=8 name=bench-jedis-1 age=1 idle=0 flags=N db=0
                id=4 addr=127.0.0.1:50001 laddr=127.0.0.1:6379 fd=9 name=bench-jedis-1 age=1 idle=0 flags=P db=0
                id=5 addr=127.0.0.1:50002 laddr=127.0.0.1:6379 fd=10 name=bench-jedis-12 age=1 idle=0 flags=N db=0
                id=6 addr=127.0.0.1:50003 laddr=127.0.0.1:6379 fd=11 name= age=1 idle=0 flags=N db=0
                """;

        assertThat(Connections.count(clientList, "bench-jedis-1")).isEqualTo(2);
        assertThat(Connections.count(clientList, "bench-lettuce-1")).isZero();
    }
}
