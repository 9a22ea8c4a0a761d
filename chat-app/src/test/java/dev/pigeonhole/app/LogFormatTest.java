package dev.pigeonhole.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@code pigeonhole serve} writes on standard error, read from a real server process: the
 * choice of shape must hold from its very first line, which no server started inside this JVM
 * (whose Logback has long been configured) could show.
 */
class LogFormatTest {

    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void json_logs_are_one_object_per_line_and_the_access_line_carries_the_request_id() throws Exception {
        List<String> lines = serveAndAsk("json-1", "--log-format", "json");

        assertThat(lines).as("standard error").isNotEmpty();
        List<JsonNode> objects = new ArrayList<>();
        for (String line : lines) {
            JsonNode node = JSON.readTree(line);
            assertThat(node.isObject()).as("a JSON object: %s", line).isTrue();
            objects.add(node);
        }
        assertThat(objects).as("every line has a level and a logger")
                .allMatch(node -> node.hasNonNull("level") && node.hasNonNull("loggerName"));
        assertThat(objects).filteredOn(node -> node.get("loggerName").stringValue().equals(Logs.ACCESS_LOGGER))
                .filteredOn(node -> node.path("mdc").path("request_id").asString("").equals("json-1"))
                .singleElement()
                .satisfies(access -> assertThat(access.get("formattedMessage").stringValue()).startsWith("GET /health 200 "));
    }

    @Test
    void text_logs_put_the_request_id_on_the_access_line_and_the_access_log_can_be_turned_off() throws Exception {
        List<String> on = serveAndAsk("text-1", "--log-format", "text");
        List<String> off = serveAndAsk("text-2", "--log-format", "text", "--access-log=false");

        assertThat(on).anyMatch(line -> line.contains(" INFO  " + Logs.ACCESS_LOGGER + " [text-1] - GET /health 200 "));
        assertThat(on).as("lines outside a request show no empty brackets").noneMatch(line -> line.contains("[]"));
        assertThat(off).noneMatch(line -> line.contains(Logs.ACCESS_LOGGER)).noneMatch(line -> line.contains("text-2"));
    }

    @Test
    void a_choice_made_after_logging_started_holds_for_every_later_line() throws Exception {
        Path err = dir.resolve("late.err");
        String classPath = ServeProcess.releaseClassPath() + File.pathSeparator
                + Path.of(LateLogChoice.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process program = new ProcessBuilder(ServeProcess.java(), "-cp", classPath, LateLogChoice.class.getName())
                .redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            assertThat(program.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)).as("ended").isTrue();
        } finally {
            program.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8);

        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).contains(" INFO ").endsWith(" - before the choice");
        assertThat(JSON.readTree(lines.get(1)).get("formattedMessage").stringValue()).isEqualTo("after the choice");
        // java.util.logging joins the same log, in the same shape.
        assertThat(JSON.readTree(lines.get(2)).get("loggerName").stringValue()).isEqualTo("a.library");
        assertThat(JSON.readTree(lines.get(2)).get("level").stringValue()).isEqualTo("WARN");
    }

    /**
     * Starts {@code serve} in its own JVM, asks for {@code /health} with this request id, stops the
     * server and returns what it wrote on standard error.
     */
    private List<String> serveAndAsk(String requestId, String... options) throws Exception {
        try (ServeProcess server = ServeProcess.start(options)) {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health"))
                    .header("X-Request-Id", requestId).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.headers().firstValue("X-Request-Id")).hasValue(requestId);
            assertThat(server.terminate()).as("stopped on SIGTERM").isTrue();
            return server.logLines();
        }
    }
}
