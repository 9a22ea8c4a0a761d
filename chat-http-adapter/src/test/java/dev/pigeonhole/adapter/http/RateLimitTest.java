package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.PendingBudget;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each write bound answered as docs/DESIGN.md §5 says: 429 with Retry-After and a problem that
 * names the limit, and nothing changed; and the pending budget marking the chats it cut short. The
 * server runs on the default limits with a clock that stands still until the test moves it.
 */
class RateLimitTest {

    private static TestApi start() {
        return TestApi.start(Limits.DEFAULTS, HttpSettings.defaults(true));
    }

    private static void expectRateLimited(ApiClient.Response refused, String write) {
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.header("Retry-After")).hasValueSatisfying(seconds ->
                assertThat(Integer.parseInt(seconds)).isPositive());
        assertThat(refused.json().get("type").stringValue()).isEqualTo("/problems/rate-limited");
        assertThat(refused.json().get("detail").stringValue()).startsWith("too many " + write + "s: the limit is");
    }

    @Test
    void the_twenty_first_send_in_a_chat_within_five_seconds_is_429_and_stores_nothing() {
        try (TestApi api = start()) {
            String alice = api.client.signIn("alice");
            api.client.post("/api/chats", alice, "{\"members\":[],\"message\":\"first\",\"chatId\":\"flood\"}");
            for (int send = 1; send <= 20; send++) {
                assertThat(api.client.post("/api/chats/flood/messages", alice, "{\"message\":\"m" + send + "\"}")
                        .status()).as("send %d", send).isEqualTo(201);
            }

            ApiClient.Response refused = api.client.post("/api/chats/flood/messages", alice, "{\"message\":\"more\"}");

            expectRateLimited(refused, "send");
            assertThat(refused.header("Retry-After")).contains("1");
            assertThat(api.client.get("/api/chats/flood/messages", alice).json().get("lastId").longValue())
                    .isEqualTo(21);
            api.advance(Duration.ofMillis(250));
            assertThat(api.client.post("/api/chats/flood/messages", alice, "{\"message\":\"in time\"}").status())
                    .isEqualTo(201);
        }
    }

    @Test
    void the_eleventh_chat_created_within_a_minute_is_429_and_not_created() {
        try (TestApi api = start()) {
            String alice = api.client.signIn("alice");
            for (int chat = 1; chat <= 10; chat++) {
                assertThat(api.client.post("/api/chats", alice, "{\"members\":[],\"message\":\"hi\",\"chatId\":\"c"
                        + chat + "\"}").status()).isEqualTo(201);
            }

            expectRateLimited(api.client.post("/api/chats", alice,
                    "{\"members\":[],\"message\":\"hi\",\"chatId\":\"c11\"}"), "create");
            assertThat(api.client.get("/api/chats", alice).json().size()).isEqualTo(10);
            assertThat(api.client.get("/api/chats/c11/messages", alice).status()).isEqualTo(404);
        }
    }

    @Test
    void inviting_and_delivering_too_fast_is_429_and_adds_and_delivers_nothing() {
        try (TestApi api = start()) {
            String alice = api.client.signIn("alice");
            String bob = api.client.signIn("bob");
            api.client.post("/api/chats", alice, "{\"members\":[],\"message\":\"hi\",\"chatId\":\"big\"}");
            for (int user = 1; user <= 30; user++) {
                assertThat(api.client.post("/api/chats/big/members", alice, "{\"user\":\"u" + user + "\"}").status())
                        .isEqualTo(204);
                assertThat(api.client.post("/api/users/bob/mailbox", alice, "{\"message\":\"d" + user + "\"}").status())
                        .isEqualTo(201);
            }

            expectRateLimited(api.client.post("/api/chats/big/members", alice, "{\"user\":\"u31\"}"), "invite");
            expectRateLimited(api.client.post("/api/users/bob/mailbox", alice, "{\"message\":\"d31\"}"), "deliver");
            assertThat(api.client.get("/api/chats", alice).json().get(0).get("members").size()).isEqualTo(31);
            assertThat(api.client.get("/api/mailbox?max=100", bob).json().get("messages").size()).isEqualTo(30);
        }
    }

    @Test
    void pending_holds_the_budget_and_marks_each_chat_cut_short() {
        try (TestApi api = TestApi.start(TestApi.LIMITS.withPending(new PendingBudget(4, 1 << 20)),
                HttpSettings.defaults(true))) {
            String alice = api.client.signIn("alice");
            String bob = api.client.signIn("bob");
            api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"a0\",\"chatId\":\"a\"}");
            api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"b0\",\"chatId\":\"b\"}");
            for (int send = 1; send <= 3; send++) {
                api.client.post("/api/chats/a/messages", alice, "{\"message\":\"a" + send + "\"}");
            }

            var chats = api.client.get("/api/pending", bob).json().get("chats");

            assertThat(chats.get(0).get("messages").size()).isEqualTo(3);
            assertThat(chats.get(0).get("more").booleanValue()).isTrue();
            assertThat(chats.get(0).get("unread").longValue()).isEqualTo(4);
            assertThat(chats.get(1).get("messages").size()).isEqualTo(1);
            assertThat(chats.get(1).get("more").booleanValue()).isFalse();
        }
    }
}
