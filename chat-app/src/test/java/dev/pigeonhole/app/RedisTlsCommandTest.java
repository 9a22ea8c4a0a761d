package dev.pigeonhole.app;

import dev.pigeonhole.testsupport.redis.RedisTarget;
import dev.pigeonhole.testsupport.redis.SecuredRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line against a Redis that speaks TLS only and admits only the README's user:
 * {@code --redis-tls} with the CA that signed its certificate plays the demo, on a single node and
 * on a cluster; a CA that did not is one line and exit status 3; a TLS file that cannot be read,
 * or a certificate without its key, is a usage error, exit status 2.
 */
class RedisTlsCommandTest {

    private static final String PREFIX = "ph:";
    private static SecuredRedis redis;

    @TempDir
    Path dir;

    private static synchronized SecuredRedis redis() {
        if (redis == null) {
            redis = SecuredRedis.single(PREFIX, SecuredRedis.Transport.TLS);
        }
        return redis;
    }

    @AfterAll
    static synchronized void stop() {
        if (redis != null) {
            redis.close();
            redis = null;
        }
    }

    @Test
    void the_demo_plays_over_tls_trusting_the_servers_ca() throws IOException {
        CommandRun outcome = demo("--redis-tls", "--redis-tls-ca", redis().certificates().authority().toString());

        assertThat(outcome.status()).as(outcome.err()).isZero();
        assertThat(outcome.out()).contains("Pigeonhole demo, store: redis");
    }

    @Test
    void a_server_certificate_another_ca_signed_stops_the_start_with_one_line() throws IOException {
        CommandRun outcome = demo("--redis-tls", "--redis-tls-ca", redis().certificates().unrelatedAuthority().toString());

        assertThat(outcome.status()).as(outcome.err()).isEqualTo(3);
        assertThat(outcome.errLines()).as("one line, no stack trace").hasSize(1);
        assertThat(outcome.errLines().getFirst())
                .startsWith("pigeonhole: Redis at rediss://127.0.0.1:")
                .contains(": misconfigured: TLS failed (")
                .doesNotContain(redis().password());
    }

    @Test
    void a_ca_file_that_cannot_be_read_is_a_usage_error_naming_it() {
        Path missing = dir.resolve("no-such-ca.crt");

        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--port", "0", "--store", "redis",
                "--redis-url", "redis://127.0.0.1:" + CommandRun.closedPort(), "--redis-tls", "--redis-tls-ca", missing.toString());

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.errLines()).containsExactly(
                "pigeonhole: cannot read the Redis TLS CA file " + missing + ": no such file");
    }

    @Test
    void a_client_certificate_without_its_key_is_a_usage_error() {
        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--port", "0", "--store", "redis",
                "--redis-url", "rediss://127.0.0.1:" + CommandRun.closedPort(),
                "--redis-tls-cert", redis().certificates().clientCertificate().toString());

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.errLines()).hasSize(1);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: a Redis client certificate and its key come together");
    }

    @Test
    void the_demo_plays_on_a_cluster_over_tls() throws IOException {
        try (SecuredRedis cluster = SecuredRedis.clusterOverTls(PREFIX)) {
            Path password = Files.createTempFile(dir, "redis-", ".password");
            Files.writeString(password, cluster.password() + "\n");

            CommandRun outcome = CommandRun.of(Map.of(), "demo", "--store", "redis", "--redis-cluster", cluster.address(),
                    "--redis-user", SecuredRedis.USER, "--redis-password-file", password.toString(),
                    "--key-prefix", PREFIX + RedisTarget.newClientName() + ":",
                    "--redis-tls", "--redis-tls-ca", cluster.certificates().authority().toString());

            assertThat(outcome.status()).as(outcome.err()).isZero();
            assertThat(outcome.out()).contains("Pigeonhole demo, store: redis");
        }
    }

    private CommandRun demo(String... tls) throws IOException {
        Path password = Files.createTempFile(dir, "redis-", ".password");
        Files.writeString(password, redis().password() + "\n");
        List<String> args = new ArrayList<>(List.of("demo", "--store", "redis", "--redis-url", redis().address(),
                "--redis-user", SecuredRedis.USER, "--redis-password-file", password.toString(),
                "--key-prefix", PREFIX + RedisTarget.newClientName() + ":"));
        args.addAll(List.of(tls));
        return CommandRun.of(Map.of(), args.toArray(String[]::new));
    }
}
