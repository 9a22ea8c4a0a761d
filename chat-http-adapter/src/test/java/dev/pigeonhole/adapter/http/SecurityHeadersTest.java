package dev.pigeonhole.adapter.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The page and every file it loads run under a policy that admits the page's own files alone,
 * in no other site's frame; nothing is read as another type than it says, and no address leaks as
 * a referrer. Whether the page still works under the policy is the browser tests' part.
 */
class SecurityHeadersTest {

    private static TestApi api;

    @BeforeAll
    static void start() {
        api = TestApi.start();
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/", "/index.html", "/app.js", "/state.js", "/history.js", "/sync.js", "/dom.js", "/style.css", "/favicon.svg"})
    void the_page_and_its_files_carry_the_content_security_policy_nosniff_and_no_referrer(String path) {
        ApiClient.Response answer = api.client.get(path, null);

        assertThat(answer.status()).as("%s", answer).isEqualTo(200);
        assertThat(answer.header("Content-Security-Policy")).hasValue("default-src 'self'; frame-ancestors 'none'");
        assertThat(answer.header("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(answer.header("Referrer-Policy")).hasValue("no-referrer");
    }

    @Test
    void api_answers_and_problems_carry_nosniff_and_no_referrer_too() {
        String alice = api.client.signIn(ApiClient.randomUser("alice"));

        for (ApiClient.Response answer : new ApiClient.Response[] {
                api.client.get("/api/chats", alice),
                api.client.get("/api/pending", null),
                api.client.get("/health", null),
                api.client.get("/health/ready", null),
                api.client.get("/metrics", null),
                api.client.get("/no/such/route", null)}) {
            assertThat(answer.header("X-Content-Type-Options")).as("%s", answer).hasValue("nosniff");
            assertThat(answer.header("Referrer-Policy")).as("%s", answer).hasValue("no-referrer");
        }
    }

    @Test
    void each_header_is_sent_once() {
        ApiClient.Response page = api.client.get("/", null);

        assertThat(page.headers().allValues("Content-Security-Policy")).hasSize(1);
        assertThat(page.headers().allValues("X-Content-Type-Options")).hasSize(1);
        assertThat(page.headers().allValues("Referrer-Policy")).hasSize(1);
    }
}
