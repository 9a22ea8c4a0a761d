package dev.pigeonhole.adapter.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * Every request has an id, the client's own when it is a sane one, on its answer and on every line
 * logged for it; and the access log has one line per request, naming the route by its template.
 * The test's logback configuration keeps the access log quiet; these tests turn it on for themselves.
 */
class AccessLogTest {

    private static final String MADE = "[0-9a-f]{16}";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static TestApi api;
    private final Logger access = (Logger) LoggerFactory.getLogger(AccessLog.LOGGER);
    private final CapturedLines lines = new CapturedLines();
    private Level levelBefore;

    @BeforeAll
    static void start() {
        api = TestApi.start();
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    @BeforeEach
    void listen() {
        levelBefore = access.getLevel();
        access.setLevel(Level.INFO);
        // Read here, not printed among the build's output.
        access.setAdditive(false);
        lines.start();
        access.addAppender(lines);
    }

    @AfterEach
    void stopListening() {
        access.detachAppender(lines);
        access.setAdditive(true);
        access.setLevel(levelBefore);
    }

    @Test
    void a_request_without_an_id_gets_one_made_and_echoed() {
        HttpResponse<String> first = get("/health", Map.of());
        HttpResponse<String> second = get("/health", Map.of());

        String id = first.headers().firstValue(RequestIds.HEADER).orElseThrow();
        assertThat(id).matches(MADE);
        assertThat(second.headers().firstValue(RequestIds.HEADER)).get().asString().matches(MADE).isNotEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc-123", "trace.4:2_x", "0123456789012345678901234567890123456789012345678901234567890123"})
    void a_sane_id_from_the_client_is_echoed_unchanged(String offered) {
        HttpResponse<String> answer = get("/health", Map.of(RequestIds.HEADER, offered));

        assertThat(answer.headers().allValues(RequestIds.HEADER)).containsExactly(offered);
    }

    @ParameterizedTest
    @ValueSource(strings = {"01234567890123456789012345678901234567890123456789012345678901234", "two words",
            "a\"quote", "{\"json\":1}", "100%"})
    void an_id_that_is_too_long_or_holds_other_characters_is_replaced(String offered) {
        HttpResponse<String> answer = get("/health", Map.of(RequestIds.HEADER, offered));

        assertThat(answer.headers().allValues(RequestIds.HEADER)).singleElement().asString().matches(MADE);
    }

    @Test
    void every_kind_of_answer_carries_the_id() {
        String alice = api.client.signIn(ApiClient.randomUser("alice"));
        Map<String, HttpResponse<String>> answers = Map.of(
                "a route", get("/api/chats", Map.of("Authorization", "Bearer " + alice)),
                "a problem", get("/api/chats", Map.of()),
                "no such route", get("/no/such/route", Map.of()),
                "a method not allowed", send("DELETE", "/api/pending"),
                "a file of the page", get("/app.js", Map.of()),
                "a live stream refused", get(LiveRoutes.EVENTS_PATH, Map.of()));

        answers.forEach((what, answer) ->
                assertThat(answer.headers().allValues(RequestIds.HEADER)).as(what).singleElement().asString().matches(MADE));
    }

    @Test
    void a_websocket_upgrade_is_logged_once_and_its_refusal_carries_the_id() throws IOException {
        String user = ApiClient.randomUser("alice");
        String alice = api.client.signIn(user);

        String opened = upgradeHead(alice, "socket-1");
        String refused = upgradeHead("not-a-token", "socket-2");

        // The 101 is written by Jetty's WebSocket upgrade, past every place the server could add a header.
        assertThat(opened).startsWith("HTTP/1.1 101");
        assertThat(refused).startsWith("HTTP/1.1 401").containsIgnoringCase(RequestIds.HEADER + ": socket-2\r\n");
        assertThat(fields(onlyLineOf("socket-1"))).containsEntry("route", LiveRoutes.SOCKET_PATH)
                .containsEntry("status", 101).containsEntry("user", user);
        assertThat(fields(onlyLineOf("socket-2"))).containsEntry("route", LiveRoutes.SOCKET_PATH)
                .containsEntry("status", 401).containsEntry("user", "-");
    }

    @Test
    void an_event_stream_is_logged_once_when_it_ends() throws IOException {
        // A quiet stream is sent a comment every third of this, which is how the server learns the client left.
        try (TestApi quick = TestApi.start(TestApi.LIMITS, TestApi.settings().withLiveIdleTimeout(Duration.ofMillis(600)))) {
            String user = ApiClient.randomUser("alice");
            String alice = quick.client.signIn(user);

            try (Socket socket = new Socket()) {
                socket.setSoTimeout(10_000);
                socket.connect(new InetSocketAddress("127.0.0.1", quick.server.port()), 5_000);
                socket.getOutputStream().write(("GET " + LiveRoutes.EVENTS_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Accept: text/event-stream\r\nAuthorization: Bearer " + alice + "\r\n"
                        + RequestIds.HEADER + ": events-1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                assertThat(head(socket.getInputStream())).startsWith("HTTP/1.1 200")
                        .containsIgnoringCase(RequestIds.HEADER + ": events-1\r\n");
            }

            assertThat(fields(onlyLineOf("events-1"))).containsEntry("route", LiveRoutes.EVENTS_PATH)
                    .containsEntry("status", 200).containsEntry("user", user);
        }
    }

    @Test
    void a_line_logged_for_a_live_connection_carries_the_id_of_the_request_that_opened_it() throws IOException {
        Logger routes = (Logger) LoggerFactory.getLogger(LiveRoutes.class);
        CapturedLines warnings = new CapturedLines();
        warnings.start();
        routes.addAppender(warnings);
        UnaryOperator<UseCases> storeDownForLive = real -> new UseCases(real.chat(), real.mailbox(), real.consent(),
                real.presence(), new LiveUseCases((user, received) -> {
                    throw new StoreUnavailableException("the store did not answer", null);
                }));
        try (TestApi down = TestApi.start(storeDownForLive)) {
            String alice = down.client.signIn(ApiClient.randomUser("alice"));

            // The subscription is made once the socket is open, on a thread of Jetty's, which warns.
            assertThat(upgradeHead(down.server.port(), alice, "live-1")).startsWith("HTTP/1.1 101");

            await().atMost(Duration.ofSeconds(10)).until(() -> {
                synchronized (warnings) {
                    return !warnings.list.isEmpty();
                }
            });
        } finally {
            routes.detachAppender(warnings);
        }
        synchronized (warnings) {
            assertThat(warnings.list).singleElement()
                    .satisfies(warning -> assertThat(warning.getFormattedMessage()).contains("not subscribed"))
                    .satisfies(warning -> assertThat(warning.getMDCPropertyMap()).containsEntry(AccessLog.MDC_KEY, "live-1"));
        }
    }

    @Test
    void the_access_line_names_method_route_template_status_duration_and_user_with_the_request_id() {
        String user = ApiClient.randomUser("alice");
        String alice = api.client.signIn(user);
        api.client.postJson("/api/chats", alice, Map.of("members", List.of(ApiClient.randomUser("bob")),
                "message", "hello", "chatId", "logged"));

        HttpResponse<String> answer = get("/api/chats/logged/messages",
                Map.of("Authorization", "Bearer " + alice, RequestIds.HEADER, "read-42"));

        assertThat(answer.statusCode()).isEqualTo(200);
        ILoggingEvent line = onlyLineOf("read-42");
        assertThat(line.getLevel()).isEqualTo(Level.INFO);
        Map<String, Object> fields = fields(line);
        assertThat(fields).containsEntry("method", "GET").containsEntry("route", "/api/chats/{chat}/messages")
                .containsEntry("status", 200).containsEntry("user", user);
        assertThat((Double) fields.get("duration_ms")).isNotNegative();
        assertThat(line.getFormattedMessage()).startsWith("GET /api/chats/{chat}/messages 200 ").endsWith(" ms " + user)
                .doesNotContain("/logged/");
    }

    @Test
    void what_no_route_answered_is_logged_with_no_route_and_no_user() {
        HttpResponse<String> answer = get("/no/such/place", Map.of(RequestIds.HEADER, "lost-1"));

        assertThat(answer.statusCode()).isEqualTo(404);
        Map<String, Object> fields = fields(onlyLineOf("lost-1"));
        assertThat(fields).containsEntry("route", "-").containsEntry("status", 404).containsEntry("user", "-");
    }

    @Test
    void a_refused_caller_is_logged_with_the_status_it_got() {
        HttpResponse<String> answer = get("/api/pending", Map.of("Authorization", "Bearer nonsense",
                RequestIds.HEADER, "refused-1"));

        assertThat(answer.statusCode()).isEqualTo(401);
        assertThat(fields(onlyLineOf("refused-1"))).containsEntry("route", "/api/pending").containsEntry("status", 401)
                .containsEntry("user", "-");
    }

    /** The line is written after the answer, so the test may read the answer first: waited for. */
    private ILoggingEvent onlyLineOf(String requestId) {
        await().atMost(Duration.ofSeconds(10)).until(() -> linesOf(requestId).size() == 1);
        List<ILoggingEvent> found = linesOf(requestId);
        assertThat(found).as("access lines of %s", requestId).hasSize(1);
        return found.getFirst();
    }

    private List<ILoggingEvent> linesOf(String requestId) {
        synchronized (lines) {
            return lines.list.stream().filter(event -> requestId.equals(event.getMDCPropertyMap().get(AccessLog.MDC_KEY)))
                    .toList();
        }
    }

    private static Map<String, Object> fields(ILoggingEvent line) {
        return line.getKeyValuePairs().stream().collect(Collectors.toMap(pair -> pair.key, pair -> pair.value));
    }

    private static HttpResponse<String> get(String path, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.server.port() + path));
        headers.forEach(request::header);
        return send(request.GET());
    }

    private static HttpResponse<String> send(String method, String path) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.server.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The head of the answer to a WebSocket upgrade, read as far as its blank line; the socket is then dropped. */
    private static String upgradeHead(String token, String requestId) throws IOException {
        return upgradeHead(api.server.port(), token, requestId);
    }

    private static String upgradeHead(int port, String token, String requestId) throws IOException {
        try (Socket socket = new Socket()) {
            socket.setSoTimeout(10_000);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + LiveRoutes.SOCKET_PATH + "?token=" + token + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" + RequestIds.HEADER + ": " + requestId + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return head(socket.getInputStream());
        }
    }

    /** An answer's head, read as far as its blank line. */
    private static String head(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        return head.toString();
    }
}
