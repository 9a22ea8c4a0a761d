package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pigeonhole serve} refusing to start: a wrong value is exit status 2, a store that does
 * not answer is 3, and either way the operator reads one line that says what is wrong, never a
 * stack trace. A start that succeeds blocks until shutdown, so only failing starts are run here,
 * each under a time limit in case one starts after all.
 */
class ServeCommandTest {

    @Test
    void a_port_that_is_not_a_number_is_exit_status_2_with_one_line_naming_it() {
        CommandRun outcome = serve("--port", "abc");

        assertThat(outcome.status()).isEqualTo(2);
        assertOneLineWithoutStackTrace(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: ").contains("--port").contains("'abc'");
    }

    @Test
    void an_unknown_store_is_exit_status_2_with_one_line_naming_the_choices() {
        CommandRun outcome = serve("--store", "nosuch");

        assertThat(outcome.status()).isEqualTo(2);
        assertOneLineWithoutStackTrace(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: ").contains("--store").contains("nosuch")
                .containsIgnoringCase("memory").containsIgnoringCase("redis");
    }

    @Test
    void a_port_out_of_range_is_exit_status_2_with_one_line_giving_the_range() {
        CommandRun outcome = serve("--port", "70000");

        assertThat(outcome.status()).isEqualTo(2);
        assertOneLineWithoutStackTrace(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: ").contains("65535").contains("70000");
    }

    @Test
    void a_jwt_secret_shorter_than_32_bytes_is_exit_status_2_with_one_line_saying_the_minimum() {
        CommandRun outcome = serve("--port", "0", "--jwt-secret", "only-31-bytes-long-0123456789ab");

        assertThat(outcome.status()).isEqualTo(2);
        assertOneLineWithoutStackTrace(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: ").contains("at least 32 bytes");
    }

    @Test
    void default_dev_login_on_every_interface_is_exit_status_2_with_one_line_saying_what_to_do() {
        CommandRun outcome = serve("--host", "0.0.0.0", "--port", "0");

        assertThat(outcome.status()).isEqualTo(2);
        assertOneLineWithoutStackTrace(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: dev login lets anyone sign in as anyone")
                .contains("0.0.0.0").contains("--dev-login=true").contains("--jwt-secret");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"collector:4318", "ftp://collector/v1/traces", "not a url", "http:///v1/traces"})
    void an_otlp_endpoint_that_is_no_http_url_is_exit_status_2_with_one_line_giving_an_example(String endpoint) {
        CommandRun outcome = serve("--port", "0", "--otlp-endpoint", endpoint);

        assertThat(outcome.status()).isEqualTo(2);
        assertOneLineWithoutStackTrace(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: the OTLP endpoint must be an http or https URL")
                .contains("http://collector:4318/v1/traces").contains(endpoint);
    }

    /** The store is asked only once the configuration stands, so reaching it shows the host was let through. */
    @Test
    void dev_login_asked_for_by_name_gets_past_the_host_check_on_every_interface() {
        CommandRun outcome = serve("--host", "0.0.0.0", "--port", "0", "--dev-login=true", "--store", "redis",
                "--redis-url", "redis://127.0.0.1:" + CommandRun.closedPort());

        assertThat(outcome.status()).isEqualTo(3);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: Redis did not answer at");
    }

    @Test
    void a_signing_secret_gets_past_the_host_check_on_every_interface() {
        CommandRun outcome = serve("--host", "0.0.0.0", "--port", "0", "--jwt-secret",
                "a-signing-secret-of-at-least-32-bytes-0123456789", "--store", "redis",
                "--redis-url", "redis://127.0.0.1:" + CommandRun.closedPort());

        assertThat(outcome.status()).isEqualTo(3);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: Redis did not answer at");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(RedisClientKind.class)
    void a_redis_that_does_not_answer_is_exit_status_3_with_one_line(RedisClientKind client) {
        String url = "redis://127.0.0.1:" + CommandRun.closedPort();

        CommandRun outcome = serve("--port", "0", "--store", "redis", "--redis-client", client.name().toLowerCase(),
                "--redis-url", url);

        assertThat(outcome.status()).isEqualTo(3);
        assertOneLineWithoutStackTrace(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: Redis did not answer at").contains(url);
    }

    @Test
    void a_postgres_that_does_not_answer_is_exit_status_3_with_one_line_and_no_password() {
        String url = "jdbc:postgresql://127.0.0.1:" + CommandRun.closedPort() + "/pigeonhole";

        CommandRun outcome = serve("--port", "0", "--store", "postgres", "--postgres-url", url);

        assertThat(outcome.status()).as("the default options fit together: %s", outcome.err()).isEqualTo(3);
        assertOneLineWithoutStackTrace(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: PostgreSQL at").contains(url);
    }

    private static void assertOneLineWithoutStackTrace(CommandRun outcome) {
        assertThat(outcome.errLines()).as("standard error:%n%s", outcome.err()).hasSize(1);
        assertThat(outcome.err()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(outcome.out()).as("standard output").isEmpty();
    }

    private static CommandRun serve(String... options) {
        return CommandRun.of(Map.of(), Stream.concat(Stream.of("serve"), Stream.of(options)).toArray(String[]::new));
    }
}
