package dev.pigeonhole.adapter.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A plain HTTP client for tests: raw bodies in, status, headers and parsed JSON out. */
final class ApiClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int EXPECT_CONTINUE_ABOVE = 8 * 1024;

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ApiClient(URI base) {
        this.base = base;
    }

    record Response(int status, String body, java.net.http.HttpHeaders headers) {
        JsonNode json() {
            return JSON.readTree(body);
        }

        Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        String contentType() {
            return header("Content-Type").orElse("");
        }
    }

    /** Signs in through dev login and returns the token. */
    String signIn(String user) {
        Response response = send("POST", "/api/session", null, "{\"user\":\"" + user + "\"}");
        if (response.status() != 200) {
            throw new IllegalStateException("sign-in as " + user + " failed: " + response);
        }
        return response.json().get("token").stringValue();
    }

    Response get(String path, String token) {
        return send("GET", path, token, null);
    }

    Response post(String path, String token, String body) {
        return send("POST", path, token, body);
    }

    Response delete(String path, String token) {
        return send("DELETE", path, token, null);
    }

    /** Any method, any path, any body; a null token sends no Authorization header. */
    Response send(String method, String path, String token, String body) {
        return sendBytes(method, path, token, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    Response sendBytes(String method, String path, String token, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10))
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
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
