package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.limits.Limits;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static dev.pigeonhole.adapter.http.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code GET /api/events}: the live protocol over Server-Sent Events. */
class EventStreamTest {

    @Test
    void a_stream_without_a_valid_token_is_refused_before_anything_is_held() {
        try (TestApi api = TestApi.start()) {
            assertProblem(get(api, "/api/events", Map.of("Accept", "text/event-stream")), 401, "unauthorized");
            assertProblem(get(api, "/api/events?token=forged", Map.of("Accept", "text/event-stream")), 401, "unauthorized");
            assertThat(ServerMetrics.read(api.client, "pigeonhole_live_event_streams")).isZero();
        }
    }

    @Test
    void pending_comes_first_then_live_events_then_chats_joined_while_connected_then_direct_messages() throws Exception {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            String bob = api.client.signIn("bob");
            api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"one\",\"chatId\":\"c\"}");
            api.client.post("/api/chats/c/messages", alice, "{\"message\":\"two\"}");

            try (LiveClient live = LiveClient.events(api.server.port(), bob)) {
                live.nextMessage("c", 2);
                api.client.post("/api/chats/c/messages", alice, "{\"message\":\"three\"}");
                live.nextMessage("c", 3);
                assertThat(live.messages("c")).containsExactly("1 one", "2 two", "3 three");
                assertThat(live.lastEventId()).isEqualTo("c:3");

                api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"welcome\",\"chatId\":\"d\"}");
                live.nextMessage("d", 1);
                assertThat(live.lastEventId()).as("the chat heard from last comes last").isEqualTo("c:3,d:1");

                api.client.post("/api/users/bob/mailbox", alice, "{\"message\":\"psst\"}");
                LiveClient.Received direct = live.next("mailbox");
                assertThat(direct.event().get("message").get("message").stringValue()).isEqualTo("psst");
                assertThat(direct.id()).as("a mailbox is pulled, not resumed: no event id").isEmpty();
                assertThat(live.lastEventId()).isEqualTo("c:3,d:1");
            }
        }
    }

    @Test
    void a_stream_resumed_with_its_last_event_id_repeats_nothing_and_skips_nothing() throws Exception {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            String bob = api.client.signIn("bob");
            api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"one\",\"chatId\":\"c\"}");
            String resumeAfter;
            try (LiveClient first = LiveClient.events(api.server.port(), bob)) {
                first.nextMessage("c", 1);
                resumeAfter = first.lastEventId();
            }
            api.client.post("/api/chats/c/messages", alice, "{\"message\":\"while away\"}");

            try (LiveClient again = LiveClient.events(api.server.port(), bob, resumeAfter)) {
                again.nextMessage("c", 2);
                api.client.post("/api/chats/c/messages", alice, "{\"message\":\"back\"}");
                again.nextMessage("c", 3);
                assertThat(again.messages("c")).containsExactly("2 while away", "3 back");
            }
        }
    }

    @Test
    void a_quiet_stream_gets_a_retry_hint_and_comments_and_ends_with_a_closed_event_when_the_server_stops() throws Exception {
        Duration idleTimeout = Duration.ofMillis(900);
        TestApi api = TestApi.start(Limits.DEFAULTS, HttpSettings.defaults(true).withLiveIdleTimeout(idleTimeout));
        String alice = api.client.signIn("alice");
        try (LiveClient live = LiveClient.events(api.server.port(), alice);
             InputStream raw = stream(api, alice)) {
            String retryHint = "retry: " + EventStream.RETRY.toMillis() + "\n\n";
            assertThat(new String(raw.readNBytes(retryHint.length()), StandardCharsets.UTF_8)).isEqualTo(retryHint);
            long quietSince = System.nanoTime();
            await().atMost(Duration.ofSeconds(10)).until(() -> live.keepAlives() >= 4);
            assertThat(Duration.ofNanos(System.nanoTime() - quietSince)).isGreaterThan(idleTimeout);
            assertThat(live.closed()).as("closed by the idle timeout").isNotDone();
            await().atMost(Duration.ofSeconds(10)).until(() -> ServerMetrics.read(api.client, "pigeonhole_live_event_streams") == 2.0);
            assertThat(ServerMetrics.read(api.client, "pigeonhole_live_sessions")).isEqualTo(2.0);

            api.close();
            assertThat(live.closed().get()).isEqualTo(new LiveClient.Closing(0, "stopping"));
        }
    }

    private static InputStream stream(TestApi api, String token) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.server.port() + "/api/events"))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream").build();
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        return response.body();
    }

    /** A request with headers the test client does not send; answered in full, so never a stream. */
    private static ApiClient.Response get(TestApi api, String path, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.server.port() + path))
                .timeout(Duration.ofSeconds(10));
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new ApiClient.Response(response.statusCode(), response.body(), response.headers());
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

}
