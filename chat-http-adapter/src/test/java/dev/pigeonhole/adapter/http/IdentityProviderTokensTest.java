package dev.pigeonhole.adapter.http;

import static dev.pigeonhole.adapter.http.ProblemAssertions.assertProblem;
import static dev.pigeonhole.adapter.http.SignedTokens.claims;
import static dev.pigeonhole.adapter.http.SignedTokens.sign;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tokens from an identity provider, checked with the keys it publishes at a JWKS URL: what is
 * accepted, what is refused and why, rotation, an outage, and the bound on fetches a flood of
 * unknown keys may cause. Keys are made per run; the JWKS is served on loopback.
 */
class IdentityProviderTokensTest {

    private static final String ISSUER = "https://id.example.test/";
    private static final String AUDIENCE = "pigeonhole";
    private static RSAKey rsa;
    private static ECKey ec;
    private static RSAKey impostor;

    @BeforeAll
    static void makeKeys() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        // Another key under the first one's name: only its signature tells them apart.
        impostor = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
    }

    private static JwksServer jwks;
    private static TestApi api;

    @BeforeAll
    static void startServers() {
        jwks = new JwksServer().serve(rsa, ec);
        api = TestApi.withTokens(clock -> Tokens.fromJwks(jwks.url(), JwksFetching.DEFAULTS,
                IdentityProvider.anyIssuer().withIssuer(ISSUER).withAudience(AUDIENCE), clock));
    }

    @AfterAll
    static void stopServers() {
        api.close();
        jwks.close();
    }

    private static JWTClaimsSet.Builder valid(String user) {
        return claims(user, api.now.get()).issuer(ISSUER).audience(AUDIENCE);
    }

    private static ApiClient.Response asCaller(String token) {
        return api.client.get("/api/presence", token);
    }

    @Test
    void rs256_and_es256_tokens_sign_their_subject_in() {
        ApiClient.Response byRsa = asCaller(sign(rsa, valid("alice").build()));
        ApiClient.Response byEc = asCaller(sign(ec, valid("bob").build()));

        assertThat(byRsa.status()).as(byRsa.body()).isEqualTo(200);
        assertThat(byRsa.json().get("online").toString()).contains("\"alice\"");
        assertThat(byEc.status()).as(byEc.body()).isEqualTo(200);
        assertThat(byEc.json().get("online").toString()).contains("\"bob\"");
    }

    @Test
    void a_user_name_is_canonicalised_as_everywhere_and_an_invalid_one_refused() {
        ApiClient.Response casey = asCaller(sign(rsa, valid("Casey").build()));
        ApiClient.Response invalid = asCaller(sign(rsa, valid("casey jones!").build()));

        assertThat(casey.json().get("online").toString()).contains("\"casey\"").doesNotContain("Casey");
        assertThat(api.client.get("/api/session", sign(rsa, valid("Casey").build())).json().get("user").stringValue())
                .as("whom the token signs in, as the server reads it").isEqualTo("casey");
        assertThat(assertProblem(invalid, 401, "unauthorized").get("detail").stringValue())
                .contains("names no valid user").contains("1 to");
    }

    @Test
    void a_signature_by_another_key_under_a_known_name_is_refused() {
        assertThat(detail(asCaller(sign(impostor, valid("mallory").build())))).contains("signature does not match");
    }

    @Test
    void expiry_and_not_before_allow_a_minute_for_clocks_and_no_more() {
        Instant now = api.now.get();
        String expiredLongAgo = sign(rsa, valid("dana").expirationTime(Date.from(now.minusSeconds(61))).build());
        String expiredJustNow = sign(rsa, valid("dana").expirationTime(Date.from(now.minusSeconds(30))).build());
        String notYet = sign(rsa, valid("dana").notBeforeTime(Date.from(now.plusSeconds(120))).build());
        String almost = sign(rsa, valid("dana").notBeforeTime(Date.from(now.plusSeconds(30))).build());
        String noExpiry = sign(rsa, valid("dana").expirationTime(null).build());

        assertThat(detail(asCaller(expiredLongAgo))).contains("expired at");
        assertThat(asCaller(expiredJustNow).status()).isEqualTo(200);
        assertThat(detail(asCaller(notYet))).contains("not valid before");
        assertThat(asCaller(almost).status()).isEqualTo(200);
        assertThat(detail(asCaller(noExpiry))).contains("no expiry");
    }

    @Test
    void the_issuer_and_audience_must_be_the_configured_ones() {
        assertThat(detail(asCaller(sign(rsa, valid("erin").issuer("https://elsewhere.test/").build()))))
                .contains("not issued by " + ISSUER);
        assertThat(detail(asCaller(sign(rsa, valid("erin").issuer(null).build())))).contains("not issued by");
        assertThat(detail(asCaller(sign(rsa, valid("erin").audience("another-service").build()))))
                .contains("audience");
        assertThat(detail(asCaller(sign(rsa, valid("erin").audience((String) null).build())))).contains("audience");
    }

    @Test
    void a_token_naming_no_user_is_refused() {
        assertThat(detail(asCaller(sign(rsa, valid("frank").subject(null).build())))).contains("no 'sub' claim");
    }

    @Test
    void neither_alg_none_nor_hs256_keyed_with_the_public_key_gets_in() throws Exception {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String claims = valid("grace").build().toString();
        String none = base64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + ".";
        // The classic confusion: a verifier that let the token choose would key HMAC with the public key it holds.
        SignedJWT confused = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("rsa-1").build(),
                valid("grace").build());
        confused.sign(new MACSigner(rsa.toPublicKey().getEncoded()));

        assertThat(detail(asCaller(none))).contains("not a signed JWT");
        assertThat(detail(asCaller(confused.serialize()))).contains("RS256 or ES256").contains("HS256");
    }

    @Test
    void the_user_may_come_from_another_claim() {
        try (TestApi custom = TestApi.withTokens(clock -> Tokens.fromJwks(jwks.url(), JwksFetching.DEFAULTS,
                IdentityProvider.anyIssuer().withUserClaim("preferred_username"), clock))) {
            String named = sign(rsa, claims("opaque-id-1", custom.now.get()).claim("preferred_username", "Heidi").build());
            String unnamed = sign(rsa, claims("opaque-id-2", custom.now.get()).build());

            ApiClient.Response answer = custom.client.get("/api/presence", named);
            assertThat(answer.json().get("online").toString()).contains("\"heidi\"").doesNotContain("opaque");
            assertThat(assertProblem(custom.client.get("/api/presence", unnamed), 401, "unauthorized")
                    .get("detail").stringValue()).contains("'preferred_username'");
        }
    }

    @Test
    void a_rotated_key_is_fetched_when_first_named_and_a_withdrawn_one_stops_working() throws Exception {
        RSAKey first = new RSAKeyGenerator(2048).keyID("first").generate();
        RSAKey second = new RSAKeyGenerator(2048).keyID("second").generate();
        try (JwksServer rotating = new JwksServer().serve(first);
             TestApi rotated = TestApi.withTokens(clock -> Tokens.fromJwks(rotating.url(), JwksFetching.DEFAULTS,
                     IdentityProvider.anyIssuer(), clock))) {
            String byFirst = sign(first, claims("ivan", rotated.now.get()).build());
            String bySecond = sign(second, claims("ivan", rotated.now.get()).build());
            assertThat(rotated.client.get("/api/chats", byFirst).status()).isEqualTo(200);

            rotating.serve(second);

            assertThat(rotated.client.get("/api/chats", bySecond).status()).as("the new key, after a refetch")
                    .isEqualTo(200);
            assertThat(rotating.fetches()).isEqualTo(2);
            assertThat(detail(rotated.client.get("/api/chats", byFirst))).contains("kid 'first'");
        }
    }

    @Test
    void a_withdrawn_key_stops_working_when_the_cached_set_expires_though_no_new_key_was_named() throws Exception {
        RSAKey withdrawn = new RSAKeyGenerator(2048).keyID("withdrawn").generate();
        RSAKey kept = new RSAKeyGenerator(2048).keyID("kept").generate();
        JwksFetching briefly = JwksFetching.DEFAULTS.withMinRefetchInterval(Duration.ofMillis(50))
                .withCacheLifetime(Duration.ofMillis(300));
        try (JwksServer provider = new JwksServer().serve(withdrawn, kept);
             TestApi cached = TestApi.withTokens(clock -> Tokens.fromJwks(provider.url(), briefly,
                     IdentityProvider.anyIssuer(), clock))) {
            String byWithdrawn = sign(withdrawn, claims("mia", cached.now.get()).build());
            assertThat(cached.client.get("/api/chats", byWithdrawn).status()).isEqualTo(200);

            provider.serve(kept);

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> cached.client.get("/api/chats", byWithdrawn).status() == 401);
            assertThat(detail(cached.client.get("/api/chats", byWithdrawn))).contains("kid 'withdrawn'");
            assertThat(cached.client.get("/api/chats", sign(kept, claims("mia", cached.now.get()).build())).status())
                    .isEqualTo(200);
        }
    }

    @Test
    void a_flood_of_unknown_keys_fetches_the_set_a_bounded_number_of_times() throws Exception {
        RSAKey stranger = new RSAKeyGenerator(2048).generate();
        try (JwksServer counted = new JwksServer().serve(rsa);
             TestApi flooded = TestApi.withTokens(clock -> Tokens.fromJwks(counted.url(), JwksFetching.DEFAULTS,
                     IdentityProvider.anyIssuer(), clock))) {
            for (int i = 0; i < 200; i++) {
                RSAKey named = new RSAKey.Builder(stranger).keyID(UUID.randomUUID().toString()).build();
                assertProblem(flooded.client.get("/api/chats", sign(named, claims("judy", flooded.now.get()).build())),
                        401, "unauthorized");
            }

            // The first fetch, and the rate limit's two per interval (30 s) after it, whatever the flood.
            assertThat(counted.fetches()).isBetween(1, 3);
            assertThat(flooded.client.get("/api/chats", sign(rsa, claims("judy", flooded.now.get()).build())).status())
                    .as("a real key still works").isEqualTo(200);
        }
    }

    @Test
    void keys_that_cannot_be_had_are_a_503_not_the_clients_fault() {
        JwksServer gone = new JwksServer().serve(rsa);
        gone.close();
        try (JwksServer broken = new JwksServer().serveText("this is no JSON");
             JwksServer failing = new JwksServer().serve(rsa).answer(500)) {
            for (JwksServer provider : new JwksServer[] {gone, broken, failing}) {
                try (TestApi cut = TestApi.withTokens(clock -> Tokens.fromJwks(provider.url(), JwksFetching.DEFAULTS,
                        IdentityProvider.anyIssuer(), clock))) {
                    String token = sign(rsa, claims("kim", cut.now.get()).build());
                    for (int attempt = 0; attempt < 3; attempt++) {
                        ApiClient.Response answer = cut.client.get("/api/chats", token);
                        assertProblem(answer, 503, "auth-unavailable");
                        assertThat(answer.header("Retry-After")).isPresent();
                    }
                }
            }
        }
    }

    @Test
    void a_public_key_file_may_be_pem_or_jwk_but_never_a_private_key() throws Exception {
        Base64.Encoder mime = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
        String pem = "-----BEGIN PUBLIC KEY-----\n" + mime.encodeToString(ec.toPublicKey().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
        try (TestApi byPem = TestApi.withTokens(clock -> Tokens.fromPublicKeys(pem, IdentityProvider.anyIssuer(), clock));
             TestApi byJwk = TestApi.withTokens(clock -> Tokens.fromPublicKeys(rsa.toPublicJWK().toJSONString(),
                     IdentityProvider.anyIssuer(), clock))) {
            assertThat(byPem.client.get("/api/chats", sign(ec, claims("leo", byPem.now.get()).build())).status())
                    .isEqualTo(200);
            assertThat(byJwk.client.get("/api/chats", sign(rsa, claims("leo", byJwk.now.get()).build())).status())
                    .isEqualTo(200);
            assertThat(detail(byPem.client.get("/api/chats", sign(rsa, claims("leo", byPem.now.get()).build()))))
                    .contains("no key");
        }
        assertThatThrownBy(() -> Tokens.fromPublicKeys(rsa.toJSONString(), IdentityProvider.anyIssuer(), Instant::now))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("private key");
        assertThatThrownBy(() -> Tokens.fromPublicKeys("not a key", IdentityProvider.anyIssuer(), Instant::now))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PEM public key");
    }

    @Test
    void with_an_identity_provider_the_server_signs_nobody_in() {
        ApiClient.Response response = api.client.post("/api/session", null, "{\"user\":\"alice\"}");

        assertProblem(response, 403, "dev-login-off");
        assertThat(api.tokens.issues()).isFalse();
        assertThatThrownBy(() -> api.tokens.issue(dev.pigeonhole.domain.model.UserId.of("alice")))
                .isInstanceOf(IllegalStateException.class);
    }

    private static String detail(ApiClient.Response response) {
        return assertProblem(response, 401, "unauthorized").get("detail").stringValue();
    }

}
