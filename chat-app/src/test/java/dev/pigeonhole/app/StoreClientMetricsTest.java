package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What /metrics shows besides the server's own meters: the JVM's collections, and what the store's
 * client library records into the registry the composition root hands it (HikariCP's pool on
 * PostgreSQL, Lettuce's command latencies on Redis).
 */
class StoreClientMetricsTest {

    /** A latency series of one command type; its labels name the command and the node, never a key. */
    private static final Pattern LETTUCE_LATENCY =
            Pattern.compile("(?m)^lettuce_command_completion_seconds_count\\{([^}]*)} ([0-9.E]+)$");

    @RegisterExtension
    final RunningServer server = RunningServer.startedByTheTest();

    @Test
    void the_jvms_collections_class_loading_and_processors_are_on_metrics() {
        server.start(StoreUnderTest.MEMORY.config());

        String metrics = scrape(server.api());

        assertThat(metrics).contains("jvm_gc_memory_allocated_bytes_total", "jvm_gc_max_data_size_bytes",
                "jvm_classes_loaded_classes", "system_cpu_count");
    }

    @Test
    void on_postgres_the_pools_connections_are_on_metrics() {
        server.start(StoreUnderTest.POSTGRES.config());
        ApiClient api = server.api();
        server.openChat(api.signIn("alice"), List.of("bob"), "hi");

        String metrics = scrape(api);

        assertThat(metrics).contains("hikaricp_connections_active{pool=\"pigeonhole-postgres\"}",
                "hikaricp_connections_idle{pool=\"pigeonhole-postgres\"}",
                "hikaricp_connections_acquire_seconds_count{pool=\"pigeonhole-postgres\"}");
    }

    @Test
    void on_redis_through_lettuce_each_command_types_latency_is_on_metrics() {
        server.start(StoreUnderTest.REDIS_THROUGH_LETTUCE.config());
        ApiClient api = server.api();
        server.openChat(api.signIn("alice"), List.of("bob"), "hi");

        var series = LETTUCE_LATENCY.matcher(scrape(api)).results().toList();

        assertThat(series).as("lettuce_command_completion_seconds_count series").isNotEmpty();
        assertThat(series).anySatisfy(line -> {
            assertThat(line.group(1)).contains("command=\"FCALL\"");
            assertThat(Double.parseDouble(line.group(2))).isPositive();
        });
        assertThat(series).allSatisfy(line -> assertThat(line.group(1)).doesNotContain("alice", "bob"));
    }

    private static String scrape(ApiClient api) {
        ApiClient.Response metrics = api.get("/metrics", null);
        assertThat(metrics.status()).isEqualTo(200);
        return metrics.body();
    }
}
