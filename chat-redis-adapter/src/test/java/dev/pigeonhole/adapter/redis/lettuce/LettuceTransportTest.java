package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The transport Lettuce's connections run on is the one the adapter says: epoll on Linux x86-64,
 * whose native library the module ships, and NIO when {@code -Dio.lettuce.core.epoll=false}
 * turns it off. Lettuce decides once per process, so the second case runs in a JVM of its own.
 * And what epoll changes underneath, how a socket error reaches the driver, changes nothing a
 * caller is told.
 */
class LettuceTransportTest {

    /** What {@link TransportProbe} prints before the transport's name. */
    static final String REPORT = "transport=";

    private static final long PROBE_SECONDS = 60;

    @Test
    void a_connection_runs_on_epoll_where_the_module_ships_its_library() throws Exception {
        assumeTrue(linuxOnX86(), "the module ships epoll's native library for Linux on x86-64 only");
        assumeTrue(Boolean.parseBoolean(System.getProperty(LettuceTransport.EPOLL_PROPERTY, "true")),
                "this JVM turns epoll off");
        Connector<?> connector = Connector.of(settings(RedisServers.single(), RedisTarget.newClientName()));
        try {
            assertThat(connector.transport()).as("before any connection").isEmpty();
            connector.connection().get(10, TimeUnit.SECONDS);
            assertThat(connector.transport()).contains(LettuceTransport.EPOLL);
        } finally {
            connector.shutdown();
        }
    }

    @Test
    void turning_epoll_off_keeps_the_connection_on_nio() throws Exception {
        RedisTarget redis = RedisServers.single();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path log = Files.createTempFile("transport-probe", ".log");
        Process probe = new ProcessBuilder(java.toString(), "-D" + LettuceTransport.EPOLL_PROPERTY + "=false",
                "-cp", System.getProperty("java.class.path"), TransportProbe.class.getName(), redis.address())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            boolean finished = probe.waitFor(PROBE_SECONDS, TimeUnit.SECONDS);
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(finished).as("the probe finished within %d s: %s", PROBE_SECONDS, output).isTrue();
            assertThat(probe.exitValue()).as(output).isZero();
            assertThat(output.lines().filter(line -> line.startsWith(REPORT)).toList())
                    .as(output).isEqualTo(List.of(REPORT + LettuceTransport.NIO));
        } finally {
            probe.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    /**
     * Epoll reads a reset as Netty's own IOException, not the JDK's SocketException that NIO
     * raises; the caller is told of a broken connection either way, not of an unreachable server.
     */
    @Test
    void a_reset_under_a_command_reads_as_a_broken_connection_on_epoll_too() throws Exception {
        assumeTrue(linuxOnX86(), "the module ships epoll's native library for Linux on x86-64 only");
        URI redis = URI.create(RedisServers.single().address());
        try (ResettingProxy proxy = new ResettingProxy(redis.getHost(), redis.getPort());
             LettuceDriver driver = new LettuceDriver(RedisSettings.of(
                     RedisSettings.Endpoint.single("redis://127.0.0.1:" + proxy.port()))
                     .withClientName(RedisTarget.newClientName()))) {
            assertThat(driver.ping()).as("through the proxy").isTrue();
            proxy.arm();

            assertThatThrownBy(() -> driver.publish("transport-test", "hello", false))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("connection broken")
                    .hasMessageContaining("reset");
        }
    }

    private static boolean linuxOnX86() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        return os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64"));
    }
}
