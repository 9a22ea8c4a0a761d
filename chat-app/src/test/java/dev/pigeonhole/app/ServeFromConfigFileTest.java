package dev.pigeonhole.app;

import dev.pigeonhole.testsupport.ServerProcess;
import dev.pigeonhole.testsupport.ServerRecipe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pigeonhole serve --config FILE} as an operator runs it: a process of its own, whose only
 * configuration is a file naming a free port it picked for it. The server must answer on that
 * port, and stop on SIGTERM.
 */
class ServeFromConfigFileTest {

    private static final String CONFIG = "pigeonhole.conf";

    /** The server, started on this JVM's classpath; ready once it says it listens on the file's port. */
    private static final class FromConfigFile implements ServerRecipe {

        @Override
        public String name() {
            return "pigeonhole";
        }

        @Override
        public List<String> command(int port, Path dir) {
            try {
                Files.write(dir.resolve(CONFIG), List.of("# written by the test", "host = 127.0.0.1",
                        "port = " + port, "store = memory", "max-members = 50"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                    "serve", "--config", dir.resolve(CONFIG).toString());
        }

        @Override
        public Readiness probe(int port, long pid, Path dir) {
            try {
                // Only this process writes its log, so the line there is this server's, not another's on the port.
                String log = Files.readString(dir.resolve(name() + ".log"));
                return log.contains("listening on http://localhost:" + port + " ") ? Readiness.READY : Readiness.NOT_YET;
            } catch (IOException e) {
                return Readiness.NOT_YET;
            }
        }

        @Override
        public Duration startTimeout() {
            return Duration.ofSeconds(60);
        }
    }

    @Test
    void a_server_started_from_a_configuration_file_listens_on_the_port_the_file_sets() throws Exception {
        try (ServerProcess server = ServerProcess.start(new FromConfigFile());
             HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> health = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/health")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("memory");
        }
    }
}
