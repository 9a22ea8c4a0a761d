package dev.pigeonhole.adapter.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What one client address can hold of the server by connections alone, with no request ever
 * completed: headers trickled slower than the deadline are cut off, and connections past the
 * per-address limit are closed as they open.
 */
class ConnectionBoundsAbuseTest {

    private static final Duration HEADER_TIMEOUT = Duration.ofSeconds(1);
    private static final int PER_ADDRESS = 3;

    @Test
    void headers_trickled_slower_than_the_deadline_get_the_connection_closed() throws Exception {
        try (TestApi api = TestApi.start(Limits.DEFAULTS, TestApi.settings().withHeaderTimeout(HEADER_TIMEOUT));
             Socket socket = connect(api)) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/chats HTTP/1.1\r\nHost: 127.0.0.1\r\n").getBytes(StandardCharsets.US_ASCII));
            long started = System.nanoTime();

            // A header line every 300 ms: each byte would restart an idle timeout, never this deadline.
            boolean closed = false;
            for (int line = 0; line < 30 && !closed; line++) {
                closed = !sendLine(out, "X-Trickle-" + line + ": " + line) || endOfStream(socket, Duration.ofMillis(300));
            }

            assertThat(closed).as("the server closed the connection").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(HEADER_TIMEOUT.multipliedBy(5));
        }
    }

    @Test
    void connections_past_the_per_address_limit_are_refused_and_closing_one_frees_a_slot() throws Exception {
        try (TestApi api = TestApi.start(Limits.DEFAULTS, TestApi.settings().withMaxConnectionsPerAddress(PER_ADDRESS))) {
            // Issued directly: signing in over HTTP would leave a pooled connection counting against the limit.
            String token = api.tokens.issue(UserId.of("alice"));
            InetAddress loopback = InetAddress.getByName("127.0.0.1");
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < PER_ADDRESS; i++) {
                    held.add(connect(api));
                }
                await().atMost(Duration.ofSeconds(5)).until(() -> api.server.connectionsFrom(loopback) == PER_ADDRESS);

                try (Socket extra = connect(api)) {
                    assertThat(endOfStream(extra, Duration.ofSeconds(5))).as("the extra connection is closed").isTrue();
                }
                for (Socket socket : held) {
                    assertThat(get(socket, "/api/chats", token)).as("a connection within the limit").startsWith("HTTP/1.1 200");
                }

                held.removeFirst().close();
                await().atMost(Duration.ofSeconds(5)).until(() -> api.server.connectionsFrom(loopback) == PER_ADDRESS - 1);
                try (Socket again = connect(api)) {
                    assertThat(get(again, "/api/chats", token)).as("a connection in the freed slot").startsWith("HTTP/1.1 200");
                }
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> api.server.connectionsFrom(loopback) == 0);
        }
    }

    private static Socket connect(TestApi api) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", api.server.port()), 5_000);
        return socket;
    }

    /** False when the server has already closed its side, so the line could not be sent. */
    private static boolean sendLine(OutputStream out, String line) {
        try {
            out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the server ends the stream within {@code wait}, sending nothing else first. */
    private static boolean endOfStream(Socket socket, Duration wait) throws IOException {
        socket.setSoTimeout((int) wait.toMillis());
        try {
            return socket.getInputStream().read() < 0;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            // Reset by the server: closed just the same.
            return true;
        }
    }

    /** One GET on this connection, kept alive; the status line and headers of its answer, body skipped. */
    private static String get(Socket socket, String path, String token) throws IOException {
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int next = in.read();
            if (next < 0) {
                return head.toString();
            }
            head.append((char) next);
        }
        String lower = head.toString().toLowerCase();
        int at = lower.indexOf("content-length:");
        if (at >= 0) {
            int length = Integer.parseInt(lower.substring(at + 15, lower.indexOf("\r\n", at)).strip());
            in.readNBytes(length);
        }
        return head.toString();
    }
}
