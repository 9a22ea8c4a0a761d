package dev.pigeonhole.app;

import static dev.pigeonhole.adapter.http.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.IdentityProvider;
import dev.pigeonhole.adapter.http.JwksServer;
import dev.pigeonhole.adapter.http.SignedTokens;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server with an identity provider, as the command line and the configuration set it up: its
 * tokens sign people in, the server signs nobody in itself, and a configuration that leaves unsaid
 * which keys count is refused in one line before anything starts.
 */
class IdentityProviderServeTest {

    private static final String SECRET = "a-signing-secret-of-at-least-32-bytes-0123456789";

    @Test
    void a_server_with_a_jwks_url_takes_the_providers_tokens_and_issues_none() throws Exception {
        ECKey key = new ECKeyGenerator(Curve.P_256).keyID("idp-1").generate();
        IdentityProvider claims = IdentityProvider.anyIssuer().withIssuer("https://id.example.test/")
                .withAudience("pigeonhole");
        try (JwksServer jwks = new JwksServer().serve(key);
             Server server = Server.start(AppConfig.defaults(), ServerConfig.defaults().withPort(0)
                     .withJwtProvider(JwtProvider.fromJwks(jwks.url(), claims)), InstantSource.system());
             ApiClient api = ApiClient.onPort(server.port())) {
            String token = SignedTokens.sign(key, SignedTokens.claims("Alice", Instant.now())
                    .issuer("https://id.example.test/").audience("pigeonhole").build());

            ApiClient.Response presence = api.get("/api/presence", token);
            ApiClient.Response session = api.post("/api/session", null, "{\"user\":\"alice\"}");

            assertThat(presence.status()).as(presence.body()).isEqualTo(200);
            assertThat(presence.json().get("online").toString()).contains("\"alice\"");
            assertProblem(session, 403, "dev-login-off");
            assertThat(jwks.fetches()).isEqualTo(1);
        }
    }

    @Test
    void an_identity_provider_turns_dev_login_off_so_any_host_is_allowed() {
        ServerConfig config = ServerConfig.defaults()
                .withJwtProvider(JwtProvider.fromJwks(URI.create("https://id.example.test/jwks"),
                        IdentityProvider.anyIssuer()))
                .withHost("0.0.0.0");

        assertThat(config.devLoginOn()).isFalse();
        assertThatThrownBy(() -> config.withDevLogin(true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no key to sign");
        assertThatThrownBy(() -> config.withJwtSecret(SECRET)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not both");
    }

    /** The store is asked only once the configuration stands, so reaching it shows every check was passed. */
    @Test
    void a_jwks_url_gets_past_the_host_check_on_every_interface_without_fetching_at_start() {
        CommandRun outcome = serve("--host", "0.0.0.0", "--port", "0",
                "--jwt-jwks-url", "https://id.example.test/.well-known/jwks.json", "--jwt-issuer", "https://id.example.test/",
                "--store", "redis", "--redis-url", "redis://127.0.0.1:" + CommandRun.closedPort());

        assertThat(outcome.status()).as(outcome.err()).isEqualTo(3);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: Redis did not answer at");
    }

    @Test
    void a_public_key_file_is_read_at_start_and_one_without_a_key_refused(@TempDir Path dir) throws Exception {
        ECKey key = new ECKeyGenerator(Curve.P_256).generate();
        Path good = Files.writeString(dir.resolve("idp.jwk"), key.toPublicJWK().toJSONString());
        Path bad = Files.writeString(dir.resolve("idp.pem"), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");

        CommandRun taken = serve("--host", "0.0.0.0", "--port", "0", "--jwt-public-key-file", good.toString(),
                "--store", "redis", "--redis-url", "redis://127.0.0.1:" + CommandRun.closedPort());
        CommandRun refused = serve("--port", "0", "--jwt-public-key-file", bad.toString());

        assertThat(taken.status()).as(taken.err()).isEqualTo(3);
        assertRefusedInOneLine(refused, "PEM public key");
    }

    @Test
    void two_sources_of_keys_at_once_are_refused_in_one_line(@TempDir Path dir) throws Exception {
        Path key = Files.writeString(dir.resolve("idp.jwk"),
                new ECKeyGenerator(Curve.P_256).generate().toPublicJWK().toJSONString());
        String url = "https://id.example.test/jwks";

        assertRefusedInOneLine(serve("--port", "0", "--jwt-secret", SECRET, "--jwt-jwks-url", url), "one source");
        assertRefusedInOneLine(serve("--port", "0", "--jwt-jwks-url", url, "--jwt-public-key-file", key.toString()),
                "one source");
        assertRefusedInOneLine(CommandRun.of(Map.of("PIGEONHOLE_JWT_SECRET", SECRET), "serve", "--port", "0",
                "--jwt-public-key-file", key.toString()), "one source");
    }

    @Test
    void what_goes_with_a_provider_alone_is_refused_without_one() {
        String url = "https://id.example.test/jwks";

        assertRefusedInOneLine(serve("--port", "0", "--jwt-jwks-url", "http://id.example.test/jwks"), "https");
        assertRefusedInOneLine(serve("--port", "0", "--jwt-jwks-url", "file:///etc/jwks.json"), "https");
        assertRefusedInOneLine(serve("--port", "0", "--jwt-jwks-url", url, "--dev-login=true"), "no key to sign");
        assertRefusedInOneLine(serve("--port", "0", "--jwt-issuer", "https://id.example.test/"), "--jwt-jwks-url");
    }

    @Test
    void a_provider_on_this_machine_may_serve_its_keys_over_plain_http() {
        assertThat(JwtProvider.jwksUrl("http://127.0.0.1:8081/jwks").getPort()).isEqualTo(8081);
        assertThat(JwtProvider.jwksUrl("http://localhost/jwks").getHost()).isEqualTo("localhost");
    }

    private static void assertRefusedInOneLine(CommandRun outcome, String saying) {
        assertThat(outcome.status()).as(outcome.err()).isEqualTo(2);
        assertThat(outcome.errLines()).as("standard error:%n%s", outcome.err()).hasSize(1);
        assertThat(outcome.err()).doesNotContain("Exception").doesNotContain("\tat ").contains(saying);
    }

    private static CommandRun serve(String... options) {
        return CommandRun.of(Map.of(), Stream.concat(Stream.of("serve"), Stream.of(options)).toArray(String[]::new));
    }
}
