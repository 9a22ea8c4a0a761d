package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import dev.pigeonhole.testsupport.redis.SecuredRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code serve} against a Redis that admits only signed-in users, as an operator configures it:
 * {@code --redis-user} and {@code --redis-password-file}. Credentials Redis refuses and a
 * permission the user lacks stop the start with one line, exit status 3 and no password; the
 * README's user on a cluster, configured from a file, serves. One single node and one cluster
 * serve the whole class, each started on first use.
 */
class RedisCredentialsTest {

    /** The key prefix the README's ACL line is filled in with, and the server runs with. */
    private static final String PREFIX = "ph:";

    private static SecuredRedis single;
    private static SecuredRedis cluster;

    @TempDir
    Path dir;

    private static synchronized SecuredRedis single() {
        if (single == null) {
            single = SecuredRedis.single(PREFIX);
        }
        return single;
    }

    private static synchronized SecuredRedis cluster() {
        if (cluster == null) {
            cluster = SecuredRedis.cluster(PREFIX);
        }
        return cluster;
    }

    @AfterAll
    static synchronized void stop() {
        for (SecuredRedis redis : new SecuredRedis[] {single, cluster}) {
            if (redis != null) {
                redis.close();
            }
        }
        single = null;
        cluster = null;
    }

    /**
     * In a JVM of its own, so that everything the process writes is seen: the log and the
     * clients' own output (GLIDE's core writes to the console itself) as well as the command's
     * line, which comes last.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(RedisClientKind.class)
    void a_wrong_password_stops_the_start_with_one_line_naming_it_and_no_password(RedisClientKind client) throws Exception {
        String wrong = "not-" + single().password();
        Process process = new ProcessBuilder(ServeProcess.java(), "-cp", ServeProcess.releaseClassPath(),
                Main.class.getName(), "serve", "--port", "0", "--store", "redis",
                "--redis-client", client.name().toLowerCase(), "--redis-url", single().address(), "--key-prefix", PREFIX,
                "--redis-user", SecuredRedis.USER, "--redis-password-file", passwordFile(wrong).toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(process.waitFor()).as(output).isEqualTo(3);
        assertThat(output.strip().lines().toList().getLast()).as(output)
                .startsWith("pigeonhole: Redis at " + single().address() + " could not serve ")
                .endsWith(": misconfigured: Redis rejects the configured user name or password "
                        + "(WRONGPASS invalid username-password pair or user is disabled.)");
        assertThat(output).as("no stack trace").doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(output).doesNotContain(wrong);
    }

    @Test
    void an_unknown_user_stops_the_start_with_one_line_naming_it() throws IOException {
        CommandRun outcome = serve(RedisClientKind.LETTUCE, "no-such-user", single().password());

        assertStoppedWithOneLine(outcome, single().password());
        assertThat(outcome.errLines().getFirst())
                .contains("misconfigured: Redis rejects the configured user name or password (WRONGPASS ");
    }

    @Test
    void the_password_may_come_from_the_environment() {
        String[] demo = {"demo", "--store", "redis", "--redis-url", single().address(), "--redis-user", SecuredRedis.USER,
                "--key-prefix", PREFIX + RedisTarget.newClientName() + ":"};

        CommandRun right = CommandRun.of(Map.of("PIGEONHOLE_REDIS_PASSWORD", single().password()), demo);
        CommandRun wrong = CommandRun.of(Map.of("PIGEONHOLE_REDIS_PASSWORD", "not-" + single().password()), demo);

        assertThat(right.status()).as(right.err()).isZero();
        assertStoppedWithOneLine(wrong, single().password());
        assertThat(wrong.errLines().getFirst()).contains("(WRONGPASS ");
    }

    @Test
    void no_password_where_one_is_required_stops_the_start_with_one_line_naming_it() {
        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--port", "0", "--store", "redis",
                "--redis-url", single().address(), "--key-prefix", PREFIX);

        assertStoppedWithOneLine(outcome, single().password());
        assertThat(outcome.errLines().getFirst())
                .contains("misconfigured: Redis requires a password and none is configured (NOAUTH ");
    }

    /** The README's user less one permission: the start names the user and the command, and where to look. */
    @Test
    void a_missing_permission_stops_the_start_with_one_line_naming_the_command() throws IOException {
        String user = "ph-noload";
        String password = "pw-" + RedisTarget.newClientName();
        List<String> rules = new ArrayList<>(SecuredRedis.readmeAclRules(PREFIX, password));
        rules.add("-function|load");
        single().setUser(user, rules.toArray(String[]::new));
        // A fresh server holds no library, so the start must load it.
        single().admin().functionFlush();

        CommandRun outcome = serve(RedisClientKind.LETTUCE, user, password);

        assertStoppedWithOneLine(outcome, password);
        assertThat(outcome.errLines().getFirst())
                .contains("the Redis user '" + user + "' may not run FUNCTION LOAD; see the README's ACL line");
    }

    @Test
    void credentials_in_the_url_and_in_the_options_at_once_are_a_usage_error() throws IOException {
        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--port", "0", "--store", "redis",
                "--redis-url", "redis://pigeonhole:in-the-url@127.0.0.1:" + CommandRun.closedPort(),
                "--redis-user", "pigeonhole", "--redis-password-file", passwordFile("in-a-file").toString());

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.errLines()).hasSize(1);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: the Redis URL carries a user or password")
                .doesNotContain("in-the-url").doesNotContain("in-a-file");
    }

    @Test
    void a_user_without_a_password_is_a_usage_error() {
        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--port", "0", "--store", "redis",
                "--redis-url", "redis://127.0.0.1:" + CommandRun.closedPort(), "--redis-user", "pigeonhole");

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.errLines()).containsExactly("pigeonhole: the Redis user 'pigeonhole' needs a password");
    }

    @Test
    void pigeonhole_config_shows_where_the_password_is_and_masks_one_in_a_url() throws IOException {
        Path file = passwordFile("in-a-file");

        CommandRun fromFile = CommandRun.of(Map.of(), "config", "--store", "redis", "--redis-user", "pigeonhole",
                "--redis-password-file", file.toString());
        CommandRun inUrl = CommandRun.of(Map.of(), "config", "--redis-url", "redis://pigeonhole:in-the-url@10.0.0.5:6379/2");
        CommandRun alone = CommandRun.of(Map.of(), "config", "--redis-url", "redis://in-the-url@10.0.0.5:6379");

        assertThat(fromFile.line("redis-user")).isEqualTo("redis-user = pigeonhole  (flag)");
        assertThat(fromFile.line("redis-password-file")).isEqualTo("redis-password-file = " + file + "  (flag)");
        assertThat(inUrl.line("redis-url")).isEqualTo("redis-url = redis://pigeonhole:****@10.0.0.5:6379/2  (flag)");
        assertThat(alone.line("redis-url")).isEqualTo("redis-url = redis://****@10.0.0.5:6379  (flag)");
        assertThat(fromFile.out() + inUrl.out() + alone.out()).doesNotContain("in-a-file").doesNotContain("in-the-url");
    }

    /**
     * The README's user on a cluster, every option from the configuration file, the password from
     * the file it names: the server starts, and {@code /health} answers without the password.
     */
    @Test
    void a_server_configured_from_a_file_serves_from_a_password_protected_cluster() throws Exception {
        Path config = dir.resolve("pigeonhole.conf");
        Files.write(config, List.of("store = redis", "redis-cluster = " + cluster().address(),
                "redis-user = " + SecuredRedis.USER, "redis-password-file = " + passwordFile(cluster().password()),
                "key-prefix = " + PREFIX));

        try (ServeProcess server = ServeProcess.start("--config", config.toString());
             HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/health")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("redis").doesNotContain(cluster().password());
            assertThat(server.log()).doesNotContain(cluster().password());
        }
    }

    private CommandRun serve(RedisClientKind client, String user, String password) throws IOException {
        return CommandRun.of(Map.of(), "serve", "--port", "0", "--store", "redis",
                "--redis-client", client.name().toLowerCase(), "--redis-url", single().address(),
                "--key-prefix", PREFIX, "--redis-user", user, "--redis-password-file", passwordFile(password).toString());
    }

    private Path passwordFile(String password) throws IOException {
        Path file = Files.createTempFile(dir, "redis-", ".password");
        Files.writeString(file, password + "\n");
        return file;
    }

    private static void assertStoppedWithOneLine(CommandRun outcome, String password) {
        assertThat(outcome.status()).as(outcome.err()).isEqualTo(3);
        assertThat(outcome.errLines()).as("one line, no stack trace").hasSize(1);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: Redis at ");
        assertThat(outcome.out() + outcome.err()).doesNotContain(password);
    }
}
