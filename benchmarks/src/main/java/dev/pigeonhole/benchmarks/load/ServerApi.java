package dev.pigeonhole.benchmarks.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.json.JsonMapper;

/**
 * The calls the load tools make of a running server's API, made one way for all of them: a JSON
 * body, the bearer token when there is one, and a timeout, so that a stalled server fails a call
 * instead of hanging a run.
 */
final class ServerApi {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http;
    private final URI url;

    ServerApi(HttpClient http, URI url) {
        this.http = http;
        this.url = url;
    }

    /** POST {@code body} as JSON to {@code path}, as {@code token}'s user (none when null). */
    HttpResponse<String> post(String path, String token, Object body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path))
                .timeout(CALL_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The live socket's address for {@code token}'s user: the server's, with ws for http. */
    URI live(String token) {
        return URI.create(url.toString().replaceFirst("^http", "ws") + "/api/live?token=" + token);
    }
}
