package dev.pigeonhole.app;

import com.sun.net.httpserver.HttpServer;
import dev.pigeonhole.adapter.http.ApiClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The way out, as an operator sets it up: {@code --otlp-endpoint} names a collector, and the spans
 * of what the server served reach it as OTLP over HTTP, sent by the JDK's own client. The collector
 * here is a loopback HTTP server that keeps what is posted to it.
 */
class OtlpExportTest {

    /** One POST a collector received. */
    record Received(String path, String contentType, byte[] body) {

        /** The body as Latin-1: protobuf keeps strings as their bytes, so a name is found as it is. */
        String text() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private HttpServer collector;

    @BeforeEach
    void startCollector() throws IOException {
        collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        collector.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                received.add(new Received(exchange.getRequestURI().getPath(),
                        exchange.getRequestHeaders().getFirst("Content-Type"), body.readAllBytes()));
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
    }

    @AfterEach
    void stopCollector() {
        collector.stop(0);
    }

    @Test
    void the_spans_of_a_request_reach_the_collector_when_the_server_stops() {
        URI endpoint = URI.create("http://127.0.0.1:" + collector.getAddress().getPort() + "/v1/traces");
        Server server = Server.start(AppConfig.defaults(),
                ServerConfig.defaults().withPort(0).withDevLogin(true).withOtlpEndpoint(endpoint),
                InstantSource.system());
        try (ApiClient api = ApiClient.onPort(server.port())) {
            api.signIn(ApiClient.randomUser("alice"));
        } finally {
            // Spans go out in batches; stopping sends what is left.
            server.close();
        }

        assertThat(received).isNotEmpty().allSatisfy(post -> {
            assertThat(post.path()).isEqualTo("/v1/traces");
            assertThat(post.contentType()).isEqualTo("application/x-protobuf");
        });
        String sent = String.join("", received.stream().map(Received::text).toList());
        assertThat(sent).contains("POST /api/session").contains("pigeonhole");
    }
}
