package dev.pigeonhole.app;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Dev login signs anyone in as anyone, so by default it stays on loopback: on any other host it
 * runs only when asked for by name, and a signing secret turns it off altogether. The OTLP
 * endpoint is read as the operator wrote it (a bad one is {@link ServeCommandTest}'s).
 */
class ServerConfigTest {

    private static final String SECRET = "a-signing-secret-of-at-least-32-bytes-0123456789";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"0.0.0.0", "::", "[::]", "192.168.1.20", "10.0.0.5", "chat.example.org", "0"})
    void default_dev_login_on_a_host_other_than_loopback_is_refused_with_what_to_do(String host) {
        assertThatThrownBy(() -> ServerConfig.defaults().withHost(host))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("anyone sign in as anyone")
                .hasMessageContaining(host)
                .hasMessageContaining("--dev-login=true")
                .hasMessageContaining("--jwt-secret");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"127.0.0.1", "127.0.0.2", "localhost", "LOCALHOST", "::1", "[::1]", "0:0:0:0:0:0:0:1"})
    void default_dev_login_on_a_loopback_host_is_allowed(String host) {
        ServerConfig config = ServerConfig.defaults().withHost(host);

        assertThat(config.devLoginOn()).isTrue();
        assertThat(config.host()).isEqualTo(host);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"0.0.0.0", "192.168.1.20", "chat.example.org"})
    void dev_login_asked_for_by_name_runs_on_any_host(String host) {
        ServerConfig config = ServerConfig.defaults().withDevLogin(true).withHost(host);

        assertThat(config.devLoginOn()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"0.0.0.0", "192.168.1.20"})
    void a_signing_secret_turns_dev_login_off_so_any_host_is_allowed(String host) {
        ServerConfig config = ServerConfig.defaults().withJwtSecret(SECRET).withHost(host);

        assertThat(config.devLoginOn()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"0.0.0.0", "192.168.1.20"})
    void dev_login_turned_off_by_name_runs_on_any_host_without_a_secret(String host) {
        ServerConfig config = ServerConfig.defaults().withDevLogin(false).withHost(host);

        assertThat(config.devLoginOn()).isFalse();
    }

    @Test
    void an_otlp_endpoint_is_taken_as_written_and_none_given_traces_nothing() {
        assertThat(ServerConfig.otlpEndpoint(" https://collector.example.org:4318/v1/traces "))
                .contains(URI.create("https://collector.example.org:4318/v1/traces"));
        assertThat(ServerConfig.otlpEndpoint(null)).isEmpty();
        assertThat(ServerConfig.otlpEndpoint("")).isEmpty();
        assertThat(ServerConfig.defaults().otlpEndpoint()).isEqualTo(Optional.empty());
    }
}
