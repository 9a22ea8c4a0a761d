package dev.pigeonhole.benchmarks.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.adapter.redis.Durability;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.benchmarks.durability.Samples.Row;
import dev.pigeonhole.benchmarks.durability.Samples.Side;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DurableSendsTest {

    @Test
    void theSideThatGoesFirstAlternatesFromRoundToRound() {
        assertThat(DurableSends.sides(1)).containsExactly(Side.NONE, Side.DURABLE);
        assertThat(DurableSends.sides(2)).containsExactly(Side.DURABLE, Side.NONE);
        assertThat(DurableSends.sides(3)).containsExactly(Side.NONE, Side.DURABLE);
    }

    @Test
    void theDefaultsAreOneReplicaForASecondOneAndSixteenCallersThreeRoundsEveryClient(@TempDir Path out) {
        DurableSends tool = new DurableSends();
        new CommandLine(tool).parseArgs("--out", out.toString());

        assertThat(tool.durability()).isEqualTo(new Durability(1, Duration.ofSeconds(1)));
        assertThat(tool.callers).containsExactly(1, 16);
        assertThat(tool.rounds).isEqualTo(3);
        assertThat(tool.clients).containsExactly(RedisClientKind.JEDIS, RedisClientKind.LETTUCE,
                RedisClientKind.REDISSON, RedisClientKind.GLIDE);
    }

    @Test
    void clientsAndCallersAreListsAndClientNamesIgnoreCase(@TempDir Path out) {
        DurableSends tool = new DurableSends();
        new CommandLine(tool).setCaseInsensitiveEnumValuesAllowed(true)
                .parseArgs("--out", out.toString(), "--clients", "jedis,Lettuce", "--callers", "4,64");

        assertThat(tool.clients).containsExactly(RedisClientKind.JEDIS, RedisClientKind.LETTUCE);
        assertThat(tool.callers).containsExactly(4, 64);
    }

    @Test
    void aDurableSideThatWaitsForNothingOrForeverIsRefusedBeforeAnyRedisIsAsked(@TempDir Path out) {
        assertThat(run("--out", out.toString(), "--replicas", "0")).isEqualTo(2);
        assertThat(run("--out", out.toString(), "--timeout-ms", "0")).isEqualTo(2);
        assertThat(run("--out", out.toString(), "--timeout-ms", "60001")).isEqualTo(2);
        assertThat(run("--out", out.toString(), "--sends", "0")).isEqualTo(2);
        assertThat(run("--out", out.toString(), "--callers", "1,0")).isEqualTo(2);
        assertThat(out.resolve(Samples.MEASURES)).doesNotExist();
    }

    @Test
    void onlyReplicasOnlineCount() {
        String info = """
                # Replication\r
                role:master\r
                connected_slaves:2\r
                slave0:ip=127.0.0.1,port=6380,state=online,offset=1234,lag=0\r
                slave1:ip=127.0.0.1,port=6381,state=wait_bgsave,offset=0,lag=0\r
                master_repl_offset:1234\r
                """;

        assertThat(Primary.onlineReplicas(info)).isEqualTo(1);
        assertThat(Primary.onlineReplicas("# Replication\r\nrole:master\r\nconnected_slaves:0\r\n")).isZero();
    }

    @Test
    void rowsAppendedReadBackAsWritten(@TempDir Path folder) throws IOException {
        Row first = new Row(1, RedisClientKind.JEDIS, 1, Side.NONE, 2000, 0.25, 110.5, 240.1, 45.25, 47.5);
        Row second = new Row(1, RedisClientKind.JEDIS, 1, Side.DURABLE, 2000, 0.5, 230.0, 480.7, 45.25, 47.5);
        Samples.append(folder, List.of(first));
        Samples.append(folder, List.of(second));

        assertThat(Samples.read(folder)).containsExactly(first, second);
        assertThat(second.sendsPerSecond()).isEqualTo(4000);
    }

    private static int run(String... args) {
        CommandLine line = DurableSends.commandLine();
        line.setErr(new PrintWriter(new StringWriter()));
        return line.execute(args);
    }
}
