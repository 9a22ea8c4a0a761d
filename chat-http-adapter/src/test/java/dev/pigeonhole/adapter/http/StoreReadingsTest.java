package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.limits.Limits;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Anyone may scrape /metrics and /health, so neither reaches the store: both answer what one
 * refresher per server last read, and the refresher reads every interval whatever the number of
 * scrapes. Counted through the real in-memory registry and the health check the server is given.
 */
class StoreReadingsTest {

    private static final Duration EVERY = Duration.ofSeconds(1);
    private static final int SCRAPES = 300;

    @Test
    void a_flood_of_scrapes_reaches_the_store_no_more_often_than_the_refresher_does() {
        try (TestApi api = TestApi.start(Limits.DEFAULTS, HttpSettings.defaults(true).withStoreReadingsEvery(EVERY))) {
            int countsBefore = api.presenceRegistry.everyoneOnlineReads();
            int checksBefore = api.healthChecks.get();
            long started = System.nanoTime();

            for (int i = 0; i < SCRAPES; i++) {
                assertThat(api.client.get("/metrics", null).status()).isEqualTo(200);
                assertThat(api.client.get("/health", null).status()).isEqualTo(200);
            }

            // A round may have been under way as the flood began, then one per interval it lasted.
            long rounds = (System.nanoTime() - started) / EVERY.toNanos() + 2;
            int counts = api.presenceRegistry.everyoneOnlineReads() - countsBefore;
            int checks = api.healthChecks.get() - checksBefore;
            assertThat((long) counts).as("reads of everyone online during %d scrapes", SCRAPES).isLessThanOrEqualTo(rounds);
            assertThat((long) checks).as("health checks during %d calls", SCRAPES).isLessThanOrEqualTo(rounds);
            assertThat(rounds).as("the flood was a flood: more scrapes than rounds").isLessThan(SCRAPES);
        }
    }

    @Test
    void the_online_gauge_counts_who_signed_in_once_the_next_reading_is_taken() {
        try (TestApi api = TestApi.start()) {
            assertThat(online(api)).isZero();

            for (String user : new String[] {"alice", "bob"}) {
                String token = api.client.signIn(ApiClient.randomUser(user));
                assertThat(api.client.get("/api/chats", token).status()).isEqualTo(200);
            }

            await().atMost(Duration.ofSeconds(10)).until(() -> online(api) == 2);
        }
    }

    @Test
    void health_follows_the_store_down_and_back_at_the_next_reading() {
        try (TestApi api = TestApi.start()) {
            api.switchStore(false);
            ApiClient.Response down = api.client.get("/health", null);
            assertThat(down.json().get("status").stringValue()).isEqualTo("down");
            assertThat(down.json().get("detail").stringValue()).isEqualTo("switched off");

            api.switchStore(true);
            assertThat(api.client.get("/health", null).json().get("status").stringValue()).isEqualTo("up");
        }
    }

    @Test
    void health_tells_the_version_it_was_given_whether_the_store_is_up_or_down() {
        try (TestApi api = TestApi.start()) {
            assertThat(api.client.get("/health", null).json().get("version").stringValue()).isEqualTo(TestApi.VERSION);

            api.switchStore(false);
            assertThat(api.client.get("/health", null).json().get("version").stringValue()).isEqualTo(TestApi.VERSION);
        }
    }

    private static double online(TestApi api) {
        return ServerMetrics.read(api.client, "pigeonhole_presence_online");
    }
}
