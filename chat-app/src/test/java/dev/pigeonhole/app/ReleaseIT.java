package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.testsupport.LoopbackPorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The release as an operator gets it: the tarball this build packaged, unpacked outside the
 * checkout, its launcher run from another directory through a symbolic link, answering
 * {@code /health} with the POM's version, and stopping on SIGTERM. Run by failsafe after
 * {@code package}, since it needs the tarball.
 */
class ReleaseIT {

    private static final Duration START = Duration.ofSeconds(30);
    private static final Duration STOP = Duration.ofSeconds(15);
    private static final String VERSION = VersionTest.pomVersion();
    private static final Path TARBALL = Path.of(System.getProperty("pigeonhole.release", "(not set)"));

    @TempDir
    Path unpacked;
    /** Where the server is started from: neither the release nor the checkout. */
    @TempDir
    Path elsewhere;

    private Path release;
    private Process server;

    @BeforeEach
    void unpack() throws Exception {
        assertThat(TARBALL).as("the tarball package made").isRegularFile();
        assertThat(TARBALL.getFileName()).hasToString("pigeonhole-" + VERSION + ".tar.gz");
        Process tar = new ProcessBuilder("tar", "-xzf", TARBALL.toString(), "-C", unpacked.toString())
                .redirectErrorStream(true).start();
        String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(tar.waitFor(STOP.toSeconds(), TimeUnit.SECONDS)).as("tar ended").isTrue();
        assertThat(tar.exitValue()).as("tar: " + output).isZero();
        release = unpacked.resolve("pigeonhole-" + VERSION);
    }

    @AfterEach
    void stopWhatIsLeft() {
        if (server != null && server.isAlive()) {
            server.destroyForcibly();
        }
    }

    @Test
    void the_tarball_holds_one_directory_with_the_launcher_the_jars_and_the_operators_papers() throws IOException {
        try (Stream<Path> top = Files.list(unpacked)) {
            assertThat(top.toList()).containsExactly(release);
        }
        Path launcher = release.resolve("bin/pigeonhole");
        assertThat(launcher).isRegularFile().isExecutable();
        assertThat(Files.getPosixFilePermissions(launcher)).containsExactlyInAnyOrder(
                PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE,
                PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_EXECUTE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE);
        assertThat(release.resolve("bin/find-jdk.sh")).isRegularFile();
        try (Stream<Path> lib = Files.list(release.resolve("lib"))) {
            List<String> jars = lib.map(jar -> jar.getFileName().toString()).toList();
            assertThat(jars).contains("chat-app-" + VERSION + ".jar", "chat-domain-" + VERSION + ".jar")
                    .anyMatch(jar -> jar.startsWith("picocli-"))
                    .allMatch(jar -> jar.endsWith(".jar"))
                    .noneMatch(jar -> jar.startsWith("junit-") || jar.startsWith("chat-test-support"));
        }
        assertThat(Files.readString(release.resolve("LICENSE"))).contains("Apache License", "Version 2.0");
        assertThat(Files.readString(release.resolve("CHANGELOG.md"))).startsWith("## " + VERSION + " ");
        assertThat(release.resolve("README.md")).isRegularFile();
        assertThat(release.resolve("pigeonhole.conf.example")).isRegularFile();
    }

    @Test
    void the_launcher_prints_the_poms_version_from_any_directory() throws Exception {
        Process version = launch(List.of(release.resolve("bin/pigeonhole").toString(), "--version"),
                elsewhere.resolve("version.log"));

        assertThat(version.waitFor(START.toSeconds(), TimeUnit.SECONDS)).as("--version ended").isTrue();
        String output = Files.readString(elsewhere.resolve("version.log"));
        assertThat(version.exitValue()).as(output).isZero();
        assertThat(output.strip()).isEqualTo("pigeonhole " + VERSION);
    }

    @Test
    void the_server_starts_through_a_link_from_a_config_file_answers_health_with_the_version_and_stops_on_sigterm() throws Exception {
        Path link = Files.createSymbolicLink(elsewhere.resolve("pigeonhole"), release.resolve("bin/pigeonhole"));
        Path log = elsewhere.resolve("server.log");
        int port = LoopbackPorts.free(List.of());
        // The port comes from a configuration file only, as an operator's would.
        Path config = Files.writeString(elsewhere.resolve("pigeonhole.conf"), "# the release test's\nport = " + port + "\n");
        server = launch(List.of(link.toString(), "serve", "--config", config.toString()), log);

        try (ApiClient client = ApiClient.onPort(port)) {
            await("/health answering 200 with version " + VERSION).atMost(START).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions()
                    .failFast("the server exited", () -> !server.isAlive())
                    .until(() -> {
                        ApiClient.Response health = client.get("/health", null);
                        return health.status() == 200 && VERSION.equals(health.json().get("version").stringValue());
                    });
        } catch (RuntimeException e) {
            throw new AssertionError(e.getMessage() + "; its output:\n" + Files.readString(log), e);
        }
        server.destroy(); // SIGTERM

        assertThat(server.waitFor(STOP.toSeconds(), TimeUnit.SECONDS)).as("stopped within " + STOP).isTrue();
        assertThat(server.exitValue()).as("exit status of a stop that drained: " + Files.readString(log)).isZero();
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).as("the server's output").isNotEmpty();
        assertThat(lines.getFirst()).as("its first line").contains("Pigeonhole " + VERSION + " starting (store: memory)");
        assertThat(String.join("\n", lines)).doesNotContain("Exception");
    }

    /** Runs a command of the release from {@link #elsewhere} on the test's own JDK, its output kept in {@code log}. */
    private Process launch(List<String> command, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(elsewhere.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        // The defaults, whatever the machine's environment says about stores and ports.
        environment.keySet().removeIf(name -> name.startsWith("PIGEONHOLE_") || name.startsWith("REDIS_"));
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        return builder.start();
    }
}
