package dev.pigeonhole.adapter.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one HTTP client of the tests: requests over real HTTP to a server's port, answers as
 * status, headers and body. This module's tests and chat-app's (through this module's test-jar)
 * all go through it. A body is either raw text, so a test can send exactly the bytes it means to
 * (malformed JSON included), or a map written out as JSON, so no test hand-escapes a value.
 */
public final class ApiClient implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int EXPECT_CONTINUE_ABOVE = 8 * 1024;

    private final URI base;
    /**
     * A connection pool of this client's own. Shared between tests, a connection that one test's
     * server closed (after refusing a body, or on stopping) could be handed to the next test's
     * request, which then fails with no answer at all.
     */
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public ApiClient(URI base) {
        this.base = base;
    }

    /** A client of the server listening on this loopback port. */
    public static ApiClient onPort(int port) {
        return new ApiClient(URI.create("http://127.0.0.1:" + port));
    }

    /**
     * Closes this client's pooled connections. A server stopping gracefully waits for an idle
     * keep-alive connection to go (Jetty gives it about a second), so a test closes its client
     * first and its server stops at once.
     */
    @Override
    public void close() {
        http.close();
    }

    /** A user name no other test uses, valid as a Pigeonhole id. */
    public static String randomUser(String role) {
        return role + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    }

    /**
     * {@code value} as the server's JSON would read: written out and parsed back, so numbers come
     * back as the same node types a parsed answer holds and the two compare equal.
     */
    public static JsonNode json(Object value) {
        return JSON.readTree(JSON.writeValueAsString(value));
    }

    /** What came back. */
    public record Response(int status, String body, HttpHeaders headers) {

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        /** The Content-Type, or empty when there is none. */
        public String contentType() {
            return header("Content-Type").orElse("");
        }

        @Override
        public String toString() {
            return status + " " + contentType() + " " + body;
        }
    }

    /** Dev login: the token for {@code user}, or an assertion error saying what the server answered. */
    public String signIn(String user) {
        Response response = postJson("/api/session", null, Map.of("user", user));
        if (response.status() != 200) {
            throw new AssertionError("signing in as " + user + " failed: " + response);
        }
        return response.json().get("token").stringValue();
    }

    /** A null token sends no Authorization header, here and in every method below. */
    public Response get(String path, String token) {
        return send("GET", path, token, null);
    }

    /** A POST with no body. */
    public Response post(String path, String token) {
        return send("POST", path, token, null);
    }

    /** A POST of this text as it is; null sends no body. */
    public Response post(String path, String token, String body) {
        return send("POST", path, token, body);
    }

    /** A POST of these fields written out as a JSON object. */
    public Response postJson(String path, String token, Map<String, ?> fields) {
        return send("POST", path, token, JSON.writeValueAsString(fields));
    }

    public Response delete(String path, String token) {
        return send("DELETE", path, token, null);
    }

    /** Any method, any path, any body. */
    public Response send(String method, String path, String token, String body) {
        return sendBytes(method, path, token, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    public Response sendBytes(String method, String path, String token, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (body != null && body.length > EXPECT_CONTINUE_ABOVE) {
            // As curl does: a server that refuses a large body unread (413) closes the connection
            // while the client may still be writing, and the answer is lost. Asking first avoids that race.
            request.expectContinue(true);
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                if (!closedBeforeReading(e)) {
                    throw e;
                }
                // The pool handed out a connection the server had already closed (as Jetty does
                // after refusing a malformed request), so the server never saw this one: once more,
                // on a fresh connection. The JDK does the same by itself, but for GET only.
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            }
            return new Response(response.statusCode(), response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + path, e);
        }
    }

    /** The JDK's word for a connection that ended before a single byte of an answer came back. */
    private static boolean closedBeforeReading(IOException failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("header parser received no bytes")) {
                return true;
            }
        }
        return false;
    }
}
