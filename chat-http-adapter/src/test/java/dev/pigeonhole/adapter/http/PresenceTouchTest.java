package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.service.presence.PresenceService;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every signed-in request is a sign of life, but the store hears of a user's at most once a
 * second from one server, so a send is the send's round trip alone. Counted on the real in-memory
 * registry, on the server's clock, which the test moves.
 */
class PresenceTouchTest {

    @Test
    void requests_within_a_second_record_one_sighting_and_the_next_second_records_another() {
        try (TestApi api = TestApi.start()) {
            String alice = ApiClient.randomUser("alice");
            String token = api.client.signIn(alice);
            int before = api.presenceRegistry.touches();

            for (int i = 0; i < 5; i++) {
                assertThat(api.client.get("/api/chats", token).status()).isEqualTo(200);
            }
            assertThat(api.presenceRegistry.touches() - before).as("five requests in the same second").isEqualTo(1);

            api.advance(PresenceService.TOUCH_INTERVAL.minusMillis(1));
            assertThat(api.client.get("/api/pending", token).status()).isEqualTo(200);
            assertThat(api.presenceRegistry.touches() - before).as("still within the second").isEqualTo(1);

            api.advance(Duration.ofMillis(1));
            assertThat(api.client.get("/api/pending", token).status()).isEqualTo(200);
            assertThat(api.presenceRegistry.touches() - before).as("a second after the first").isEqualTo(2);
        }
    }

    @Test
    void a_user_whose_requests_were_not_all_recorded_is_online_for_the_window_after_the_last() {
        try (TestApi api = TestApi.start()) {
            String alice = ApiClient.randomUser("alice");
            String bob = ApiClient.randomUser("bob");
            String aliceToken = api.client.signIn(alice);
            String bobToken = api.client.signIn(bob);
            assertThat(api.client.post("/api/chats", aliceToken,
                    ApiClient.json(Map.of("members", List.of(bob), "message", "hi")).toString())
                    .status()).isEqualTo(201);
            api.advance(Duration.ofMillis(900));
            assertThat(api.client.get("/api/chats", aliceToken).status()).isEqualTo(200);

            // Bob's own request comes first each time, so the clock move is all that changes between the two.
            api.advance(TestApi.PRESENCE_WINDOW.minusMillis(1));
            assertThat(online(api, bobToken)).contains(alice);

            api.advance(PresenceService.TOUCH_INTERVAL);
            assertThat(online(api, bobToken)).doesNotContain(alice);
        }
    }

    private static List<String> online(TestApi api, String token) {
        ApiClient.Response response = api.client.get("/api/presence", token);
        assertThat(response.status()).isEqualTo(200);
        return response.json().get("online").values().stream().map(JsonNode::stringValue).toList();
    }
}
