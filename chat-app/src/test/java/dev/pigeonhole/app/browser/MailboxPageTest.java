package dev.pigeonhole.app.browser;

import static dev.pigeonhole.app.browser.Page.PATIENCE;
import static dev.pigeonhole.app.browser.Page.signIn;
import static dev.pigeonhole.app.browser.Page.testId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.app.AppConfig;
import dev.pigeonhole.app.RunningServer;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Direct messages on the page, in real headless Chromium against the real server: what waited in
 * the mailbox shows on load, what is delivered while the page is open arrives live, and what the
 * page has shown it acknowledges, so the server lets go of it and the page keeps it.
 */
@Timeout(120)
class MailboxPageTest {


    @RegisterExtension
    final RunningServer server = RunningServer.on(AppConfig::defaults);
    private ChromeDriver bob;

    @BeforeEach
    void start() {
        bob = Chromium.start();
    }

    @AfterEach
    void stop() {
        if (bob != null) {
            bob.quit();
        }
    }

    @Test
    void a_direct_message_arrives_live_on_the_recipients_page_and_is_acknowledged_once_shown() throws Exception {
        String alice = signInOver("alice");
        String bobsToken = signInOver("bob");
        post(alice, "/api/users/bob/mailbox", "{\"message\":\"Sent while you were away\"}");

        signIn(bob, server.port(), "bob");
        waitFor(driver -> "live".equals(driver.findElement(testId("connection-state")).getDomAttribute("data-state")));
        waitForDirectTexts(List.of("Sent while you were away"));

        post(alice, "/api/users/bob/mailbox", "{\"message\":\"Psst, live\"}");

        // The socket brings it: no reload, and no poll runs while the socket is up.
        waitForDirectTexts(List.of("Sent while you were away", "Psst, live"));
        assertThat(bob.findElements(testId("direct-message"))).extracting(item -> item.getDomAttribute("data-sender"))
                .containsOnly("alice");
        // Shown, so acknowledged: the server holds nothing more for bob, the page still shows both.
        new WebDriverWait(bob, PATIENCE).until(driver -> get(bobsToken, "/api/mailbox").contains("\"messages\":[]"));
        bob.navigate().refresh();
        waitForDirectTexts(List.of("Sent while you were away", "Psst, live"));
    }

    private void waitForDirectTexts(List<String> expected) {
        try {
            waitFor(driver -> directTexts().equals(expected));
        } catch (TimeoutException e) {
            assertThat(directTexts()).as("direct messages shown").containsExactlyElementsOf(expected);
        }
    }

    private List<String> directTexts() {
        return bob.findElements(By.cssSelector("[data-testid='direct-message'] .direct-text")).stream()
                .map(WebElement::getText).toList();
    }


    private void waitFor(Function<ChromeDriver, Boolean> condition) {
        Page.waitFor(bob, condition);
    }

    private String signInOver(String name) {
        return server.api().signIn(name);
    }

    private String post(String token, String path, String json) {
        ApiClient.Response answer = server.api().post(path, token, json);
        assertThat(answer.status()).as(answer.body()).isBetween(200, 201);
        return answer.body();
    }

    private String get(String token, String path) {
        ApiClient.Response answer = server.api().get(path, token);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        return answer.body();
    }

}
