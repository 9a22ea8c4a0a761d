package dev.pigeonhole.app.browser;

import static dev.pigeonhole.app.browser.Page.accessibilityViolations;
import static dev.pigeonhole.app.browser.Page.chatItem;
import static dev.pigeonhole.app.browser.Page.item;
import static dev.pigeonhole.app.browser.Page.send;
import static dev.pigeonhole.app.browser.Page.signIn;
import static dev.pigeonhole.app.browser.Page.testId;
import static dev.pigeonhole.app.browser.Page.waitFor;
import static dev.pigeonhole.app.browser.Page.waitForTexts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.app.RunningServer;
import dev.pigeonhole.app.StoreUnderTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import tools.jackson.databind.JsonNode;

/**
 * Two flows of the page that end somewhere other than a message sent: a send that could not reach
 * the server, which the person then tries again or discards, and leaving a chat through its
 * dialog. The server is real and on Redis, so it can go away and come back with what it stored.
 */
@Timeout(120)
class PageFlowsTest {

    /**
     * The page tries a send that got no answer three more times by itself, 2, 4 and 8 s apart,
     * before it offers the person the choice: all of that, and some.
     */
    private static final Duration GIVING_UP = Duration.ofSeconds(30);

    @RegisterExtension
    final RunningServer server = RunningServer.on(StoreUnderTest.REDIS_THROUGH_LETTUCE::config);
    private final List<ChromeDriver> browsers = new ArrayList<>();

    @AfterEach
    void stop() {
        try {
            for (ChromeDriver browser : browsers) {
                assertThat(Chromium.policyViolations(browser)).as("what the page's policy blocked").isEmpty();
            }
        } finally {
            browsers.forEach(ChromeDriver::quit);
        }
    }

    /**
     * Alice writes in two chats while her server is away. Each send fails in its own chat's turn,
     * at the same time, so one wait covers both: she tries one again once the server is back,
     * which reaches it once, and discards the other, which never reaches it at all.
     */
    @Test
    void a_send_that_got_no_answer_is_offered_again_and_goes_once_or_is_discarded_and_never_goes() {
        String bobsToken = server.api().signIn("bob");
        String alicesToken = server.api().signIn("alice");
        String kept = openChat(alicesToken, "kept-");
        String dropped = openChat(alicesToken, "dropped-");
        ChromeDriver alice = browser();
        signIn(alice, server.port(), "alice");
        for (String chat : List.of(kept, dropped)) {
            waitFor(alice, driver -> !driver.findElements(chatItem(chat)).isEmpty());
            alice.findElement(chatItem(chat)).click();
            waitForTexts(alice, List.of("Hello"));
        }

        server.stop();
        alice.findElement(chatItem(dropped)).click();
        send(alice, "Scratch that");
        alice.findElement(chatItem(kept)).click();
        send(alice, "See you at eight");
        waitFor(alice, driver -> !driver.findElements(item("message-pending", "data-status", "retrying")).isEmpty());
        waitFor(alice, GIVING_UP, driver -> !driver.findElements(failedSend()).isEmpty());
        assertThat(alice.findElement(failedSend()).getText()).contains("See you at eight", "Not sent.");
        assertThat(accessibilityViolations(alice)).as("what axe-core found with a failed send showing").isEmpty();

        server.restart();
        alice.findElement(failedSend()).findElement(By.cssSelector("button[data-action='retry']")).click();
        waitFor(alice, driver -> driver.findElements(testId("message-pending")).isEmpty());
        waitForTexts(alice, List.of("Hello", "See you at eight"));
        assertThat(history(bobsToken, kept)).as("what the server has of the kept chat")
                .containsExactly("Hello", "See you at eight");

        alice.findElement(chatItem(dropped)).click();
        waitFor(alice, driver -> !driver.findElements(failedSend()).isEmpty());
        alice.findElement(failedSend()).findElement(By.cssSelector("button[data-action='discard']")).click();
        waitFor(alice, driver -> driver.findElements(testId("message-pending")).isEmpty());
        assertThat(Page.texts(alice)).containsExactly("Hello");
        // A chat's sends go out in turn: once the next one is stored, the discarded one before it
        // would have been stored first, had it gone at all.
        send(alice, "Never mind");
        waitForTexts(alice, List.of("Hello", "Never mind"));
        assertThat(history(bobsToken, dropped)).as("what the server has of the chat whose send was discarded")
                .containsExactly("Hello", "Never mind");
    }

    /**
     * Leaving asks first, and staying changes nothing. Once Alice leaves, the chat is gone from
     * her list and the server answers her as a stranger to it; Bob's page, once it reloads its
     * list, has him alone in it, with Alice no longer among the people he shares a chat with.
     */
    @Test
    void leaving_asks_first_staying_changes_nothing_and_the_one_left_sees_himself_alone() {
        String alicesToken = server.api().signIn("alice");
        String chat = server.openChat(alicesToken, List.of("bob"), "Book club on Thursday?");
        ChromeDriver alice = browser();
        ChromeDriver bob = browser();
        signIn(alice, server.port(), "alice");
        signIn(bob, server.port(), "bob");
        bob.findElement(chatItem(chat)).click();
        waitFor(bob, driver -> members(driver).endsWith("You, alice")
                && !driver.findElements(onlineUser("alice")).isEmpty());

        alice.findElement(chatItem(chat)).click();
        waitForTexts(alice, List.of("Book club on Thursday?"));
        alice.findElement(testId("leave-chat-button")).click();
        waitFor(alice, driver -> driver.findElement(testId("leave-dialog")).isDisplayed());
        assertThat(alice.findElement(testId("leave-dialog")).getText()).contains("a member would have to add you again");
        alice.findElement(By.cssSelector("[data-testid='leave-dialog'] button[value='cancel']")).click();
        waitFor(alice, driver -> !driver.findElement(testId("leave-dialog")).isDisplayed());
        assertThat(alice.findElement(testId("chat-title")).isDisplayed()).as("the chat still open").isTrue();
        assertThat(alice.findElements(chatItem(chat))).as("the chat still listed").hasSize(1);
        assertThat(read(alicesToken, chat).status()).as("alice still a member").isEqualTo(200);

        alice.findElement(testId("leave-chat-button")).click();
        waitFor(alice, driver -> driver.findElement(testId("leave-dialog")).isDisplayed());
        alice.findElement(testId("leave-confirm")).click();
        waitFor(alice, driver -> driver.findElements(chatItem(chat)).isEmpty());
        assertThat(alice.findElement(testId("chat-title")).isDisplayed()).as("the chat left still open").isFalse();
        assertThat(read(alicesToken, chat).status()).as("alice, to whom the chat is now a stranger's").isEqualTo(404);

        // Who else leaves is not sent live: the others' pages see it when they next pull the chat
        // list, once a minute, on reconnecting, or at once on a reload.
        bob.navigate().refresh();
        waitFor(bob, driver -> members(driver).endsWith("Only you")
                && driver.findElements(onlineUser("alice")).isEmpty());
        assertThat(bob.findElement(testId("chat-title")).getText()).isEqualTo("Just you");
        assertThat(bob.findElements(chatItem(chat))).as("the chat still bob's").hasSize(1);
    }

    private ChromeDriver browser() {
        ChromeDriver browser = Chromium.start();
        browsers.add(browser);
        return browser;
    }

    /** A private chat of Alice's and Bob's, named so a failing assertion says which, with one message of hers. */
    private String openChat(String alicesToken, String name) {
        String chat = name + UUID.randomUUID().toString().substring(0, 8);
        ApiClient.Response opened = server.api().postJson("/api/chats", alicesToken,
                Map.of("chatId", chat, "members", List.of("bob"), "message", "Hello"));
        assertThat(opened.status()).as(opened.toString()).isEqualTo(201);
        return chat;
    }

    private ApiClient.Response read(String token, String chat) {
        return server.api().get("/api/chats/" + chat + "/messages", token);
    }

    /** The texts the server keeps of {@code chat}, as a member reads them through the API. */
    private List<String> history(String token, String chat) {
        ApiClient.Response answer = read(token, chat);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        List<String> texts = new ArrayList<>();
        for (JsonNode message : answer.json().get("messages")) {
            texts.add(message.get("message").stringValue());
        }
        return texts;
    }

    /** The open chat's members line; a chat whose id the server made up names the id first. */
    private static String members(ChromeDriver browser) {
        return browser.findElement(testId("chat-members")).getText();
    }

    private static By failedSend() {
        return item("message-pending", "data-status", "failed");
    }

    private static By onlineUser(String user) {
        return item("online-user", "data-user", user);
    }
}
