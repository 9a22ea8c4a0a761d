package dev.pigeonhole.app.browser;

import static dev.pigeonhole.app.browser.Page.accessibilityViolations;
import static dev.pigeonhole.app.browser.Page.chatItem;
import static dev.pigeonhole.app.browser.Page.connection;
import static dev.pigeonhole.app.browser.Page.signIn;
import static dev.pigeonhole.app.browser.Page.testId;
import static dev.pigeonhole.app.browser.Page.waitFor;
import static dev.pigeonhole.app.browser.Page.waitForTexts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.app.AppConfig;
import dev.pigeonhole.app.RunningServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Every view of the page, as axe-core sees it: sign-in, the lists (chats, an invitation, a block,
 * a direct message, who is online), the new-chat forms, an open chat with messages of one's own
 * and another's, and the leave dialog. Once on a desktop, once at a phone's width, where one pane
 * shows at a time, and once in dark mode, which has colours of its own to get right.
 */
@Timeout(180)
class AccessibilityPageTest {

    /** As shipped, so that a stranger's chat waits as an invitation. */
    @RegisterExtension
    final RunningServer server = RunningServer.on(AppConfig::defaults).asShipped();
    private ChromeDriver bob;

    @BeforeEach
    void start() {
        bob = Chromium.start();
    }

    @AfterEach
    void stop() {
        try {
            assertThat(Chromium.policyViolations(bob)).as("what the page's policy blocked").isEmpty();
        } finally {
            bob.quit();
        }
    }

    @Test
    void every_view_passes_axe_on_a_desktop() {
        assertThat(violationsInEveryView()).as("what axe-core found, by view").isEmpty();
    }

    @Test
    void every_view_passes_axe_at_a_phones_width() {
        bob.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", 390, "height", 844, "deviceScaleFactor", 2, "mobile", true));
        assertThat(violationsInEveryView()).as("what axe-core found at a phone's width, by view").isEmpty();
    }

    @Test
    void every_view_passes_axe_in_dark_mode() {
        bob.executeCdpCommand("Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        assertThat(violationsInEveryView()).as("what axe-core found in dark mode, by view").isEmpty();
    }

    /** Walks bob through every view with something in each, and returns each view that broke a rule. */
    private Map<String, List<String>> violationsInEveryView() {
        String chat = aChatWithAnInvitationABlockAndADirectMessage();
        Map<String, List<String>> found = new LinkedHashMap<>();

        bob.get("http://127.0.0.1:" + server.port() + "/");
        bob.findElement(testId("signin-button")).click();
        waitFor(bob, driver -> !driver.findElement(testId("signin-error")).getText().isEmpty());
        check("sign-in, with its error", found);

        signIn(bob, server.port(), "bob");
        waitFor(bob, driver -> "live".equals(connection(driver)));
        waitFor(bob, driver -> !driver.findElements(testId("invitation")).isEmpty()
                && !driver.findElements(testId("direct-message")).isEmpty()
                && !driver.findElements(testId("blocked-user")).isEmpty()
                && !driver.findElements(chatItem(chat)).isEmpty());
        bob.findElement(By.cssSelector("[data-testid='reach-settings'] summary")).click();
        check("the lists: chats, invitations, blocks, direct messages, online", found);

        bob.findElement(testId("new-chat-button")).click();
        waitFor(bob, driver -> driver.findElement(testId("new-chat-form")).isDisplayed());
        check("new chat and join", found);

        backToTheList();
        bob.findElement(chatItem(chat)).click();
        waitForTexts(bob, List.of("Yes, the usual place", "See you there"));
        check("an open chat", found);

        bob.findElement(testId("leave-chat-button")).click();
        waitFor(bob, driver -> driver.findElement(testId("leave-dialog")).isDisplayed());
        check("the leave dialog", found);
        bob.findElement(By.cssSelector("[data-testid='leave-dialog'] button[value='cancel']")).click();
        return found;
    }

    private void check(String view, Map<String, List<String>> found) {
        List<String> violations = accessibilityViolations(bob);
        if (!violations.isEmpty()) {
            found.put(view, violations);
        }
    }

    /** Only a narrow screen hides the list behind a form; there its back button brings it back. */
    private void backToTheList() {
        WebElement back = bob.findElement(By.cssSelector("#new-chat-view [data-back]"));
        if (back.isDisplayed()) {
            back.click();
        }
    }

    /**
     * Bob's open chat, which alice joined: a message from her and one from him (the first, which
     * everyone in it then had read, is gone). Carol, a stranger, invites bob; dave is blocked;
     * alice writes to bob alone.
     */
    private String aChatWithAnInvitationABlockAndADirectMessage() {
        ApiClient api = server.api();
        String bobsToken = api.signIn("bob");
        String alicesToken = api.signIn("alice");
        ApiClient.Response created = api.postJson("/api/chats", bobsToken,
                Map.of("chatId", "lunch", "members", List.of(), "message", "Lunch at noon?", "open", true));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        answered(api.post("/api/chats/lunch/members", alicesToken));
        server.send(alicesToken, "lunch", "Yes, the usual place");
        server.send(bobsToken, "lunch", "See you there");
        answered(api.postJson("/api/chats", api.signIn("carol"),
                Map.of("chatId", "party", "members", List.of("bob"), "message", "Party on Friday")));
        answered(api.postJson("/api/blocks", bobsToken, Map.of("user", "dave")));
        answered(api.postJson("/api/users/bob/mailbox", alicesToken, Map.of("message", "Psst")));
        return "lunch";
    }

    private static void answered(ApiClient.Response answer) {
        assertThat(answer.status()).as(answer.toString()).isBetween(200, 204);
    }
}
