package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.limits.Limits;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.pigeonhole.adapter.http.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The attack: one signed-in user opens live connections without end, each a feed, a subscriber
 * and a thread the server holds. The bound: {@value HttpSettings#DEFAULT_MAX_LIVE_CONNECTIONS}
 * per user and server, WebSocket and event stream together, the next refused with 429 before
 * anything is upgraded or subscribed.
 */
class LiveSocketCapAbuseTest {

    private static final int CAP = HttpSettings.DEFAULT_MAX_LIVE_CONNECTIONS;
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @Test
    void the_eleventh_socket_of_one_user_is_refused_with_429_before_the_upgrade_and_a_closing_one_lets_another_in()
            throws Exception {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            List<LiveClient> open = new ArrayList<>();
            try {
                for (int i = 0; i < CAP; i++) {
                    open.add(LiveClient.socket(api.server.port(), alice));
                }
                awaitSessions(api, CAP);

                ApiClient.Response refused = upgrade(api.server.port(), alice);
                JsonNode problem = assertProblem(refused, 429, "too-many-live-connections");
                assertThat(problem.get("detail").stringValue()).contains("alice", Integer.toString(CAP));
                assertThat(refused.header("Upgrade")).as("nothing was upgraded").isEmpty();
                assertProblem(eventStream(api.server.port(), alice), 429, "too-many-live-connections");
                assertThat(ServerMetrics.liveSessions(api.client)).as("open connections").isEqualTo(CAP);

                String bob = api.client.signIn("bob");
                try (LiveClient bobs = LiveClient.socket(api.server.port(), bob)) {
                    awaitSessions(api, CAP + 1);
                    assertThat(bobs.closed()).as("another user's socket is not alice's to count").isNotDone();
                }

                open.removeFirst().close();
                awaitSessions(api, CAP - 1);
                open.add(LiveClient.socket(api.server.port(), alice));
                awaitSessions(api, CAP);
                assertThat(open.getLast().closed()).as("the socket in the place freed").isNotDone();
            } finally {
                open.forEach(LiveClient::close);
            }
        }
    }

    @Test
    void connections_that_end_any_way_free_their_places() throws Exception {
        // A stream's client that went away is noticed at the next write: the keep-alive, a third of this.
        try (TestApi api = TestApi.start(Limits.DEFAULTS, HttpSettings.defaults(true).withLiveIdleTimeout(Duration.ofMillis(900)))) {
            String alice = api.client.signIn("alice");
            for (int round = 0; round < 3; round++) {
                List<LiveClient> open = new ArrayList<>();
                for (int i = 0; i < CAP / 2; i++) {
                    open.add(LiveClient.socket(api.server.port(), alice));
                    open.add(LiveClient.events(api.server.port(), alice));
                }
                awaitSessions(api, CAP);
                assertProblem(upgrade(api.server.port(), alice), 429, "too-many-live-connections");
                // Dropped without a close frame or the end of a stream: the server notices by an error.
                open.forEach(LiveClient::close);
                awaitSessions(api, 0);
            }
        }
    }

    private static void awaitSessions(TestApi api, int count) {
        await().atMost(PATIENCE).until(() -> ServerMetrics.liveSessions(api.client) == count);
    }

    /** A WebSocket upgrade request by hand, so that the answer to a refused one can be read whole. */
    static ApiClient.Response upgrade(int port, String token) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) PATIENCE.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/live?token=" + token + " HTTP/1.1\r\n"
                    + "Host: 127.0.0.1:" + port + "\r\n"
                    + "Upgrade: websocket\r\n"
                    + "Connection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String statusLine = line(in);
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (String header = line(in); !header.isEmpty(); header = line(in)) {
                int colon = header.indexOf(':');
                headers.computeIfAbsent(header.substring(0, colon).strip(), name -> new ArrayList<>())
                        .add(header.substring(colon + 1).strip());
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if (headers.getOrDefault("Transfer-Encoding", List.of()).contains("chunked")) {
                for (int size = Integer.parseInt(line(in).strip(), 16); size > 0; size = Integer.parseInt(line(in).strip(), 16)) {
                    body.write(in.readNBytes(size));
                    line(in);
                }
            } else if (headers.containsKey("Content-Length")) {
                body.write(in.readNBytes(Integer.parseInt(headers.get("Content-Length").getFirst())));
            } else {
                body.write(in.readAllBytes());
            }
            return new ApiClient.Response(status, body.toString(StandardCharsets.UTF_8),
                    HttpHeaders.of(headers, (name, value) -> true));
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b == -1) {
                throw new IOException("the connection ended in the middle of the answer: " + line.toString(StandardCharsets.US_ASCII));
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    /** What {@code GET /api/events} answers, read whole: for a refusal, which ends. */
    private static ApiClient.Response eventStream(int port, String token) throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/events?token=" + token))
                        .header("Accept", "text/event-stream").timeout(PATIENCE).build(),
                HttpResponse.BodyHandlers.ofString());
        return new ApiClient.Response(answer.statusCode(), answer.body(), answer.headers());
    }
}
