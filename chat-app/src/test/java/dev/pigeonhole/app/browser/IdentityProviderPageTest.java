package dev.pigeonhole.app.browser;

import static dev.pigeonhole.app.browser.Page.item;
import static dev.pigeonhole.app.browser.Page.testId;
import static dev.pigeonhole.app.browser.Page.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.pigeonhole.adapter.http.IdentityProvider;
import dev.pigeonhole.adapter.http.JwksServer;
import dev.pigeonhole.adapter.http.SignedTokens;
import dev.pigeonhole.app.AppConfig;
import dev.pigeonhole.app.JwtProvider;
import dev.pigeonhole.app.Server;
import dev.pigeonhole.app.ServerConfig;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The page signed in by a token an identity provider handed it in the address ({@code #token=}),
 * on a server that checks the provider's keys at a JWKS URL and signs nobody in itself.
 */
@Timeout(120)
class IdentityProviderPageTest {

    @Test
    void a_token_handed_in_the_address_signs_the_page_in_and_leaves_no_trace_in_it() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyID("idp-page").generate();
        String token = SignedTokens.sign(key, SignedTokens.claims("Casey", Instant.now()).build());
        try (JwksServer jwks = new JwksServer().serve(key);
             Server server = Server.start(AppConfig.defaults(), ServerConfig.defaults().withPort(0)
                     .withJwtProvider(JwtProvider.fromJwks(jwks.url(), IdentityProvider.anyIssuer())),
                     InstantSource.system())) {
            ChromeDriver browser = Chromium.start();
            try {
                browser.get("http://127.0.0.1:" + server.port() + "/#token=" + token);

                // The server's reading of the name, lower case, not the claim as the token spelled it.
                waitFor(browser, driver -> "casey".equals(driver.findElement(testId("me-name")).getText()));
                waitFor(browser, driver -> !driver.findElements(item("online-user", "data-user", "casey")).isEmpty());
                waitFor(browser, driver -> "live".equals(Page.connection(driver)));
                assertThat(browser.getCurrentUrl()).doesNotContain("token");
                assertThat(Chromium.policyViolations(browser)).as("what the page's policy blocked").isEmpty();
            } finally {
                browser.quit();
            }
        }
    }
}
