package dev.pigeonhole.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a client of a running {@link Server} sees: requests over real HTTP to its port, answers as
 * status, headers and JSON. Bodies are built from maps, so the tests never hand-escape JSON.
 */
final class HttpApi {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** One client for every test: it holds threads and connections, and needs no per-test state. */
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    private final URI base;

    private HttpApi(URI base) {
        this.base = base;
    }

    static HttpApi of(Server server) {
        return new HttpApi(URI.create("http://127.0.0.1:" + server.port()));
    }

    /** A user name no other test uses, valid as a Pigeonhole id. */
    static String randomUser(String role) {
        return role + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    }

    /**
     * {@code value} as the server's JSON would read: written out and parsed back, so numbers come
     * back as the same node types a parsed answer holds and the two compare equal.
     */
    static JsonNode json(Object value) {
        return JSON.readTree(JSON.writeValueAsString(value));
    }

    record Answer(int status, String body, HttpHeaders headers) {

        JsonNode json() {
            return JSON.readTree(body);
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        @Override
        public String toString() {
            return status + " " + headers.firstValue("Content-Type").orElse("") + " " + body;
        }
    }

    /** Dev login: the token for {@code user}, or an assertion error saying what the server answered. */
    String signIn(String user) {
        Answer answer = post("/api/session", null, Map.of("user", user));
        if (answer.status() != 200) {
            throw new AssertionError("signing in as " + user + " failed: " + answer);
        }
        return answer.json().get("token").stringValue();
    }

    Answer get(String path, String token) {
        return send("GET", path, token, null);
    }

    Answer post(String path, String token, Map<String, ?> body) {
        return send("POST", path, token, body == null ? null : JSON.writeValueAsString(body));
    }

    Answer post(String path, String token) {
        return send("POST", path, token, null);
    }

    Answer delete(String path, String token) {
        return send("DELETE", path, token, null);
    }

    private Answer send(String method, String path, String token, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + path, e);
        }
    }
}
