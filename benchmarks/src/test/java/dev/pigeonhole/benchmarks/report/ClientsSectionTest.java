package dev.pigeonhole.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientsSectionTest {

    /** As ClientComparison writes them: three rounds, the order alternating, then JMH's iterations. */
    private static final String TWO_CLIENTS = """
            round,client,measure,value
            1,JEDIS,SEND_OPS_64,30000.000
            1,JEDIS,CONNECTIONS_IDLE,1.000
            1,JEDIS,LATENCY_P99_MICROS,1500.000
            1,LETTUCE,SEND_OPS_64,45000.000
            1,LETTUCE,CONNECTIONS_IDLE,2.000
            1,LETTUCE,LATENCY_P99_MICROS,2200.000
            2,LETTUCE,SEND_OPS_64,47000.000
            2,LETTUCE,CONNECTIONS_IDLE,2.000
            2,LETTUCE,LATENCY_P99_MICROS,2000.000
            2,JEDIS,SEND_OPS_64,28000.000
            2,JEDIS,CONNECTIONS_IDLE,1.000
            2,JEDIS,LATENCY_P99_MICROS,1400.000
            3,JEDIS,SEND_OPS_64,31000.000
            3,JEDIS,CONNECTIONS_IDLE,1.000
            3,JEDIS,LATENCY_P99_MICROS,1600.000
            3,LETTUCE,SEND_OPS_64,46000.000
            3,LETTUCE,CONNECTIONS_IDLE,2.000
            3,LETTUCE,LATENCY_P99_MICROS,2100.000
            1,JEDIS,SEND_BYTES_PER_OP,9000.000
            2,JEDIS,SEND_BYTES_PER_OP,9100.000
            1,JEDIS,PENDING_BYTES_PER_OP,170000.000
            2,JEDIS,PENDING_BYTES_PER_OP,172000.000
            """;

    private static final String VERSIONS = """
            client,version,transport
            JEDIS,8.0.2,blocking JDK sockets, a pooled connection per caller
            LETTUCE,7.7.0.RELEASE,Netty epoll, one multiplexed connection
            REDISSON,4.7.0,Netty, with the transport mode Redisson's driver sets
            GLIDE,2.3.1 as built,its own Rust core through JNI, no Netty
            NETTY,4.2.18.Final,shared by Lettuce and Redisson
            """;

    private static final String SETTINGS = "rounds=3\nchats=10\nrate=10000\nseconds=2.0\nlatencySeconds=4.0\n"
            + "cpuSeconds=3.0\nallocIterations=2\n";

    @TempDir
    Path results;

    @Test
    void twoClientsMakeTwoColumnsOfMediansWithTheirSpread() throws IOException {
        String md = section(TWO_CLIENTS);

        assertThat(md).startsWith("## Clients compared");
        assertThat(md).contains("| | Jedis | Lettuce |\n|---|---:|---:|\n")
                .doesNotContain("Redisson |").doesNotContain("GLIDE |");
        // the median of 30 000, 28 000 and 31 000, with the rounds' min and max beside it
        assertThat(md).contains("| send, 64 callers | 30,000/s (28,000/s – 31,000/s) | 46,000/s (45,000/s – 47,000/s) |");
        assertThat(md).contains("| p99 | 1.50 ms (1.40 ms – 1.60 ms) | 2.10 ms (2.00 ms – 2.20 ms) |");
        // the same in every round: the value alone
        assertThat(md).contains("| idle, after start | 1 | 2 |");
        // no figure for a measure is a dash, not a zero
        assertThat(md).contains("| send, 1 caller | — | — |");
    }

    @Test
    void statesTheRateTheChatsTheOrderAndThatTheMachineIsNoisy() throws IOException {
        String md = section(TWO_CLIENTS);

        assertThat(md).contains("fixed offered rate of 10,000 sends a second");
        assertThat(md).contains("pending + acknowledge, K = 10, 64 callers");
        assertThat(md).contains("round 1 Jedis, Lettuce; round 2 Lettuce, Jedis; round 3 Jedis, Lettuce");
        assertThat(md).contains("shared with other work and noisy").contains("not these figures with those of another run");
    }

    @Test
    void theVersionsLineNamesTheMeasuredClientsTheirTransportAndNetty() throws IOException {
        String md = section(TWO_CLIENTS);

        assertThat(md).contains("**Versions:** Jedis 8.0.2 (blocking JDK sockets, a pooled connection per caller)"
                + " · Lettuce 7.7.0.RELEASE (Netty epoll, one multiplexed connection)"
                + " · Netty 4.2.18.Final (shared by Lettuce and Redisson).");
    }

    @Test
    void pendingBytesAreShownWithAndWithoutTheKSendsJmhCountsWithThem() throws IOException {
        String md = section(TWO_CLIENTS);

        assertThat(md).contains("| send | 9,050 B (9,000 B – 9,100 B) | — |");
        assertThat(md).contains("| pending + acknowledge, K = 10, with its K sends | 171,000 B (170,000 B – 172,000 B) | — |");
        // 170 000 − 10 × 9 050 and 172 000 − 10 × 9 050
        assertThat(md).contains("| pending + acknowledge, K = 10, without its K sends | 80,500 B (79,500 B – 81,500 B) | — |");
    }

    @Test
    void fourClientsMakeFourColumnsInTheClientsOrder() throws IOException {
        String csv = TWO_CLIENTS + """
                1,GLIDE,SEND_OPS_64,40000.000
                1,REDISSON,SEND_OPS_64,20000.000
                2,REDISSON,SEND_OPS_64,22000.000
                2,GLIDE,SEND_OPS_64,41000.000
                """;

        String md = section(csv);

        assertThat(md).contains("| | Jedis | Lettuce | Redisson | Valkey GLIDE |\n|---|---:|---:|---:|---:|\n");
        assertThat(md).contains("| send, 64 callers | 30,000/s (28,000/s – 31,000/s) | 46,000/s (45,000/s – 47,000/s) "
                + "| 21,000/s (20,000/s – 22,000/s) | 40,500/s (40,000/s – 41,000/s) |");
        assertThat(md).contains("Redisson 4.7.0 (Netty, with the transport mode Redisson's driver sets)")
                .contains("Valkey GLIDE 2.3.1 as built (its own Rust core through JNI, no Netty)");
    }

    @Test
    void noComparisonInTheResultsMeansNoSectionInTheFullRunAndANoteInItsOwn() {
        assertThat(ClientsSection.markdownIfRun(results)).isEmpty();
        assertThat(ClientsSection.markdown(results)).contains("not run").contains("benchmarks/run.sh --clients");
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfItsMiddleTwo() {
        assertThat(ClientsSection.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
        assertThat(ClientsSection.cell(List.of(Double.NaN), Formats::opsText)).isEqualTo("—");
    }

    private String section(String measures) throws IOException {
        Path folder = Files.createDirectories(results.resolve("clients"));
        Files.writeString(folder.resolve("measures.csv"), measures);
        Files.writeString(folder.resolve("versions.csv"), VERSIONS);
        Files.writeString(folder.resolve("settings.properties"), SETTINGS);
        return ClientsSection.markdownIfRun(results).orElseThrow();
    }
}
