package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.testsupport.redis.LocalRedisServer;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A server whose Redis dies: /health says so with a 503, API calls answer 503 problems that tell
 * the client when to retry (never a 500 or a hang), and once Redis is back the same server
 * recovers by itself, with no restart.
 */
class HealthWhenRedisDownTest {

    private static final Duration RECOVERY = Duration.ofSeconds(30);

    /**
     * The server reads the store every 5 s by default; this test reads it often, so that going
     * down and coming back take a moment rather than two readings' wait on every client.
     */
    private static final Duration READINGS = Duration.ofMillis(200);
    private static final Duration TIMEOUT = Duration.ofMillis(500);

    @RegisterExtension
    final RunningServer server = RunningServer.startedByTheTest().configured(config -> config.withStoreReadings(READINGS));

    @ParameterizedTest(name = "{0}")
    @EnumSource(RedisClientKind.class)
    void health_and_the_api_answer_503_while_redis_is_down_and_recover_when_it_is_back(RedisClientKind client) {
        LocalRedisServer redis = server.closesAfterwards(LocalRedisServer.start());
        server.start(AppConfig.defaults().withRedis(RedisConfig.defaults()
                .withClient(client).withEndpoint(TestConfigs.endpoint(redis.target())).withTimeouts(TIMEOUT, TIMEOUT)
                .withKeyPrefix(redis.target().newPrefix())));
        ApiClient api = server.api();
        String token = api.signIn(ApiClient.randomUser("alice"));
        assertThat(api.get("/health", null).status()).isEqualTo(200);
        assertThat(api.get("/api/pending", token).status()).isEqualTo(200);

        redis.stop();

        // /health answers what the server last read in the background, so it says down at the
        // next reading; finding Redis gone takes a client up to its connect and command timeouts.
        await().atMost(RECOVERY).until(() -> api.get("/health", null).status() == 503);
        ApiClient.Response health = api.get("/health", null);
        assertThat(health.status()).as(health.toString()).isEqualTo(503);
        assertThat(health.json().get("status").stringValue()).isEqualTo("down");
        assertThat(health.json().get("store").stringValue()).startsWith("redis (" + client.name().toLowerCase());
        assertThat(health.body()).as("a public answer names no host or port").doesNotContain(":" + redis.port());

        ApiClient.Response call = api.get("/api/pending", token);
        assertThat(call.status()).as(call.toString()).isEqualTo(503);
        assertThat(call.contentType()).startsWith("application/problem+json");
        assertThat(call.json().get("status").intValue()).isEqualTo(503);
        assertThat(call.header("Retry-After").orElse(null)).as("Retry-After").isNotNull().matches("[1-9][0-9]*");

        redis.restart();

        await().atMost(RECOVERY).untilAsserted(() -> {
            ApiClient.Response back = api.get("/health", null);
            assertThat(back.status()).as(back.toString()).isEqualTo(200);
            assertThat(back.json().get("status").stringValue()).isEqualTo("up");
        });
        await().atMost(RECOVERY).untilAsserted(() ->
                assertThat(api.get("/api/pending", token).status()).isEqualTo(200));
    }
}
