package dev.pigeonhole.adapter.redis.redisson;

import dev.pigeonhole.adapter.redis.FunctionCall;
import dev.pigeonhole.adapter.redis.InlineFunction;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisFunction;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;
import org.redisson.config.SingleServerConfig;

import java.time.Duration;
import java.util.List;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What is particular to the Redisson driver: that Redisson repeats nothing on its own, and that
 * its pools hold few connections at idle (Redisson's defaults would hold 24 per node).
 */
class RedissonDriverTest {

    private static final RedisFunction GET = InlineFunction.of("get", "return redis.call('GET', KEYS[1])");
    /** Busy for ARGV[1] microseconds by Redis's clock, then counts: slower than the caller will wait. */
    private static final RedisFunction SLOW_INCR = InlineFunction.of("slow-incr", """
            local function now() local t = redis.call('TIME') return t[1] * 1000000 + t[2] end
            local start = now()
            repeat until now() - start >= tonumber(ARGV[1])
            return redis.call('INCR', KEYS[1])
            """);

    @Test
    void redisson_is_told_to_retry_nothing_and_to_keep_few_idle_connections() {
        RedisSettings single = RedisSettings.of(RedisSettings.Endpoint.single("redis://127.0.0.1:6379")).withPoolSize(64);
        SingleServerConfig server = RedissonSetup.config(single).useSingleServer();
        assertThat(server.getRetryAttempts()).isZero();
        assertThat(server.getConnectionPoolSize()).isEqualTo(64);
        assertThat(server.getConnectionMinimumIdleSize()).isEqualTo(RedissonSetup.IDLE_CONNECTIONS);
        assertThat(server.getClientName()).isEqualTo("pigeonhole");

        Config config = RedissonSetup.config(RedisSettings.of(RedisSettings.Endpoint.cluster("127.0.0.1:7000")));
        ClusterServersConfig cluster = config.useClusterServers();
        assertThat(cluster.getRetryAttempts()).isZero();
        assertThat(cluster.getMasterConnectionMinimumIdleSize()).isEqualTo(RedissonSetup.IDLE_CONNECTIONS);
        assertThat(cluster.getSlaveConnectionMinimumIdleSize()).isZero();
    }

    /**
     * A function that runs longer than the command timeout fails the caller and still completes
     * on the server. A client that retried would send it again after its retry interval
     * (Redisson's default is 1.5 s), and the counter would reach 2: it is watched for twice that long.
     */
    @Test
    void a_call_that_timed_out_is_not_sent_again() {
        RedisTarget redis = RedisServers.single();
        String key = redis.newPrefix() + "{paused}";
        try (RedisDriver driver = new RedissonDriver(settings(redis, RedisTarget.newClientName())
                .withTimeouts(Duration.ofSeconds(1), Duration.ofMillis(300)))) {
            FunctionCall incr = new FunctionCall(SLOW_INCR, List.of(key), List.of("600000"));
            FunctionCall get = new FunctionCall(GET, List.of(key), List.of());
            assertThat(driver.run(get)).isNull();

            assertThatThrownBy(() -> driver.run(incr)).isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("no answer within 300 ms");

            await().atMost(Duration.ofSeconds(10)).ignoreException(StoreUnavailableException.class)
                    .until(() -> "1".equals(driver.run(get)));
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> "1".equals(driver.run(get)));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"single", "cluster"})
    void at_idle_a_driver_holds_a_few_connections_per_primary(String kind) {
        RedisTarget redis = kind.equals("cluster") ? RedisServers.cluster() : RedisServers.single();
        String clientName = RedisTarget.newClientName();
        try (RedisDriver driver = new RedissonDriver(settings(redis, clientName))) {
            assertThat(driver.run(new FunctionCall(GET, List.of(redis.newPrefix() + "{idle}"), List.of()))).isNull();

            int primaries = redis.masters().size();
            // The pool's idle connections, and on a cluster one more per node that reads the topology.
            int most = primaries * RedissonSetup.IDLE_CONNECTIONS + (redis.isCluster() ? redis.nodes().size() : 0);
            assertThat(redis.connectionCount(clientName, "normal")).as("connections named %s", clientName)
                    .isBetween(primaries, most);
        }
    }
}
