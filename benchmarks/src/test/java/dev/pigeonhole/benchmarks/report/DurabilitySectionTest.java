package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.adapter.redis.RedisClientKind.JEDIS;
import static dev.pigeonhole.adapter.redis.RedisClientKind.LETTUCE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.benchmarks.durability.Samples.Row;
import dev.pigeonhole.benchmarks.durability.Samples.Side;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurabilitySectionTest {

    /** A round of one client and one number of callers: none at {@code none} sends/s, durable at {@code durable}. */
    private static List<Row> round(int round, int callers, double none, double durable, double p50None,
                                   double p50Durable) {
        return List.of(
                new Row(round, JEDIS, callers, Side.NONE, 1000, 1000 / none, p50None, 3 * p50None, 40, 50),
                new Row(round, JEDIS, callers, Side.DURABLE, 1000, 1000 / durable, p50Durable, 3 * p50Durable, 40, 50));
    }

    @Test
    void eachRoundsCostIsItsOwnDurableOverItsOwnNoneAndTheCellShowsTheirMedianAndSpread() {
        List<Row> rows = new ArrayList<>();
        rows.addAll(round(1, 1, 10_000, 5_000, 100, 200));
        rows.addAll(round(2, 1, 8_000, 6_000, 120, 170));
        rows.addAll(round(3, 1, 12_000, 4_800, 90, 250));
        Properties settings = new Properties();
        settings.setProperty("durability", "replicas=1,timeout=1000");
        settings.setProperty("date", "2026-11-27 12:00 UTC");
        settings.setProperty("loadBefore", "3.10 2.00 1.50");

        String md = DurabilitySection.markdown(rows, settings);

        // sends/s medians with min – max; the ratios 0.50, 0.75, 0.40 per round; p50 differences 100, 50, 160
        assertThat(md).contains("| Jedis | 1 | 10,000 (8,000 – 12,000) | 5,000 (4,800 – 6,000) | 0.50× (0.40× – 0.75×) "
                + "| 100.0 µs (90.0 µs – 120.0 µs) | 200.0 µs (170.0 µs – 250.0 µs) |");
        assertThat(md).contains("| 100.0 µs (50.0 µs – 160.0 µs) | 45.0 µs |");
        assertThat(md).contains("| Jedis | 1 | 0.50× | 0.75× | 0.40× |");
        assertThat(md).contains("`replicas=1,timeout=1000`", "2026-11-27 12:00 UTC", "3.10 2.00 1.50");
    }

    @Test
    void aRoundMissingASideLeavesItsRatioOutRatherThanPairingAcrossRounds() {
        List<Row> rows = new ArrayList<>(round(1, 16, 20_000, 10_000, 500, 1000));
        rows.add(new Row(2, JEDIS, 16, Side.NONE, 1000, 1000 / 30_000.0, 400, 1200, 40, 50));

        String md = DurabilitySection.markdown(rows, new Properties());

        assertThat(md).contains("| Jedis | 16 | 0.50× | — |");
        assertThat(md).contains("| 25,000 (20,000 – 30,000) | 10,000 | 0.50× |");
    }

    @Test
    void linesFollowTheClientsInTheirFirstOrderAndTheCallersUpward() {
        List<Row> rows = List.of(
                new Row(1, LETTUCE, 16, Side.NONE, 1, 1, 1, 1, 1, 1),
                new Row(1, LETTUCE, 1, Side.NONE, 1, 1, 1, 1, 1, 1),
                new Row(1, JEDIS, 1, Side.NONE, 1, 1, 1, 1, 1, 1));

        String md = DurabilitySection.markdown(rows, new Properties());

        assertThat(md.indexOf("| Lettuce | 1 |")).isLessThan(md.indexOf("| Lettuce | 16 |"));
        assertThat(md.indexOf("| Lettuce | 16 |")).isLessThan(md.indexOf("| Jedis | 1 |"));
    }

    @Test
    void withoutFiguresTheSectionSaysItDidNotRun(@TempDir Path results) {
        assertThat(DurabilitySection.markdownIfRun(results)).isEmpty();
        assertThat(DurabilitySection.markdownOrNotRun(results)).contains("## Durable sends", "not run",
                "benchmarks/run.sh --durability");
    }
}
