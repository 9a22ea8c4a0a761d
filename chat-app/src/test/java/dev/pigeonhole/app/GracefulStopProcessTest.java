package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.LiveClient;
import dev.pigeonhole.adapter.http.ServerMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code pigeonhole serve} as an operator runs it, stopped as a container runtime stops it: with
 * SIGTERM to the process this test started, by its own handle. What clients see while it drains,
 * and the exit status that says whether the drain finished in time.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class GracefulStopProcessTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String BODY = "{\"message\":\"sent across the stop\"}";
    /** The part of the body sent before SIGTERM; the rest follows while the server drains. */
    private static final int SENT_FIRST = 10;

    @Test
    void sigterm_drains_live_connections_and_requests_in_flight_then_exits_0() throws Exception {
        try (ServeProcess served = ServeProcess.start("--drain-timeout", "PT60S");
             ApiClient api = ApiClient.onPort(served.port())) {
            String alice = api.signIn("alice");
            String bob = api.signIn("bob");
            LiveClient socket = LiveClient.socket(served.port(), bob);
            LiveClient events = LiveClient.events(served.port(), bob);
            api.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"one\",\"chatId\":\"c\"}");
            // Bob shares no chat with Alice yet, so he is invited: both connections are live once they say so.
            socket.next("invitation");
            events.next("invitation");
            try (HalfSent send = HalfSent.post(served.port(), "/api/chats/c/messages", alice)) {
                // The scrape, the event stream, and the send waiting for the rest of its body.
                awaitInFlight(api, 3);

                served.process().destroy();

                await().atMost(PATIENCE).until(() -> api.get("/health/ready", null).status() == 503);
                assertThat(api.get("/health/ready", null).json().get("status").stringValue()).isEqualTo("stopping");
                ApiClient.Response refused = api.get("/api/chats", alice);
                assertThat(refused.status()).isEqualTo(503);
                assertThat(refused.json().get("type").stringValue()).isEqualTo("/problems/server-stopping");
                assertThat(socket.closed().get(PATIENCE.toSeconds(), TimeUnit.SECONDS).code()).isEqualTo(1001);
                assertThat(events.closed().get(PATIENCE.toSeconds(), TimeUnit.SECONDS).reason()).isEqualTo("stopping");
                assertThat(served.process().isAlive()).as("the server waits for the send in flight").isTrue();

                assertThat(send.finish()).startsWith("HTTP/1.1 201");
            }
            assertThat(served.process().waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the server exited").isTrue();
            assertThat(served.process().exitValue()).as(served.log()).isZero();
            assertThat(served.log()).contains("every request in flight finished");
        }
    }

    @Test
    void a_request_that_never_finishes_is_cut_off_at_the_drain_timeout_and_the_exit_status_says_so()
            throws Exception {
        try (ServeProcess served = ServeProcess.start("--drain-timeout", "PT1S");
             ApiClient api = ApiClient.onPort(served.port())) {
            String alice = api.signIn("alice");
            api.post("/api/chats", alice, "{\"members\":[],\"message\":\"one\",\"chatId\":\"c\"}");
            try (HalfSent never = HalfSent.post(served.port(), "/api/chats/c/messages", alice)) {
                // The scrape, and the send whose body never ends.
                awaitInFlight(api, 2);

                served.process().destroy();

                assertThat(served.process().waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the server exited")
                        .isTrue();
            }
            assertThat(served.process().exitValue()).as(served.log()).isEqualTo(ServeCommand.NOT_DRAINED);
            assertThat(served.log()).contains("1 requests in flight were cut off");
        }
    }

    private static void awaitInFlight(ApiClient api, int count) {
        await().atMost(PATIENCE)
                .until(() -> ServerMetrics.read(api, "pigeonhole_http_requests_in_flight") == count);
    }

    /** A request over a socket of its own whose body is sent in two parts, so that it is in flight in between. */
    private static final class HalfSent implements AutoCloseable {

        private final Socket socket;
        private final byte[] body;

        private HalfSent(Socket socket, byte[] body) {
            this.socket = socket;
            this.body = body;
        }

        static HalfSent post(int port, String path, String token) throws IOException {
            byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
            Socket socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout((int) PATIENCE.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + token
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, SENT_FIRST);
            out.flush();
            return new HalfSent(socket, body);
        }

        /** Sends the rest of the body; answers the status line of the answer. */
        String finish() throws IOException {
            OutputStream out = socket.getOutputStream();
            out.write(body, SENT_FIRST, body.length - SENT_FIRST);
            out.flush();
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
