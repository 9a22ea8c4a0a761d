package dev.pigeonhole.app.browser;

import static dev.pigeonhole.app.browser.Page.chatItem;
import static dev.pigeonhole.app.browser.Page.connection;
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
import java.io.File;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The page in real headless Chromium, two people in two browsers of their own, against the real
 * server: what they see is what the page made of the API and the live socket.
 */
@Timeout(180)
class ChatPageTest {

    /** The page backs off up to 30 s between reconnect attempts; one full step and some. */
    private static final Duration RECONNECT_PATIENCE = Duration.ofSeconds(45);

    /** Alice's server, and Bob's beside it on one Redis: Bob's can stop while Alice's goes on. */
    @RegisterExtension
    final RunningServer alicesServer = RunningServer.on(StoreUnderTest.REDIS_THROUGH_LETTUCE::config);
    @RegisterExtension
    final RunningServer bobsServer = alicesServer.alongside();
    private ChromeDriver alice;
    private ChromeDriver bob;

    @BeforeEach
    void start() {
        alice = Chromium.start();
        bob = Chromium.start();
    }

    @AfterEach
    void stop() {
        try {
            // Everything the page needs is its own, so the policy it is served with blocked nothing.
            for (ChromeDriver browser : new ChromeDriver[] {alice, bob}) {
                if (browser != null) {
                    assertThat(Chromium.policyViolations(browser)).as("what the page's policy blocked").isEmpty();
                }
            }
        } finally {
            for (ChromeDriver browser : new ChromeDriver[] {alice, bob}) {
                if (browser != null) {
                    browser.quit();
                }
            }
        }
    }

    @Test
    void two_people_open_a_chat_and_talk_live_see_each_other_online_and_miss_nothing_while_offline() throws Exception {
        String chat = "lunch-" + UUID.randomUUID().toString().substring(0, 8);
        signIn(alice, alicesServer.port(), "alice");
        signIn(bob, bobsServer.port(), "bob");
        waitForState(alice, "live");
        waitForState(bob, "live");

        alice.findElement(testId("new-chat-button")).click();
        alice.findElement(testId("new-chat-members")).sendKeys("bob");
        alice.findElement(testId("new-chat-id")).sendKeys(chat);
        alice.findElement(testId("new-chat-message")).sendKeys("Lunch at noon?");
        alice.findElement(testId("new-chat-submit")).click();

        // Bob's socket follows the new chat the moment it is opened: no reload, no polling.
        waitFor(bob, driver -> !driver.findElements(chatItem(chat)).isEmpty());
        bob.findElement(chatItem(chat)).click();
        waitForTexts(bob, List.of("Lunch at noon?"));

        send(bob, "Yes, the usual place");
        waitForTexts(alice, List.of("Lunch at noon?", "Yes, the usual place"));

        waitFor(alice, driver -> !driver.findElements(onlineUser("bob")).isEmpty());
        waitFor(bob, driver -> !driver.findElements(onlineUser("alice")).isEmpty());

        // Bob's server goes away under his open page; Alice goes on talking through hers.
        bobsServer.stop();
        waitFor(bob, driver -> !"live".equals(connection(driver)));
        send(alice, "I'll book a table");
        send(alice, "For two, at 12:15");
        waitForTexts(alice, List.of("Lunch at noon?", "Yes, the usual place", "I'll book a table", "For two, at 12:15"));

        // Back on the same address: the page reconnects by itself and catches up.
        bobsServer.restart();
        waitFor(bob, RECONNECT_PATIENCE, driver -> "live".equals(connection(driver)));
        waitForTexts(bob, List.of("Lunch at noon?", "Yes, the usual place", "I'll book a table", "For two, at 12:15"));

        File shot = alice.getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), new File(Chromium.screenshotFolder(), "chat-page.png").toPath(),
                StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * A chat is private: Bob cannot join it by its id, so Alice adds him from the chat's header,
     * and he reads what is sent from then on, not what was said before.
     */
    @Test
    void a_member_adds_someone_to_a_private_chat_who_then_reads_only_what_follows() throws Exception {
        String chat = "plans-" + UUID.randomUUID().toString().substring(0, 8);
        signIn(alice, alicesServer.port(), "alice");
        signIn(bob, bobsServer.port(), "bob");
        waitForState(bob, "live");

        alice.findElement(testId("new-chat-button")).click();
        alice.findElement(testId("new-chat-id")).sendKeys(chat);
        alice.findElement(testId("new-chat-message")).sendKeys("Before Bob");
        alice.findElement(testId("new-chat-submit")).click();
        waitForTexts(alice, List.of("Before Bob"));
        assertThat(alice.findElement(testId("chat-access")).getText()).startsWith("Private");

        bob.findElement(testId("new-chat-button")).click();
        bob.findElement(testId("join-chat-id")).sendKeys(chat);
        bob.findElement(testId("join-chat-submit")).click();
        // To someone outside it a private chat is as absent as a missing one.
        waitFor(bob, driver -> driver.findElement(testId("join-chat-error")).getText().contains("does not exist"));

        alice.findElement(testId("invite-user")).sendKeys("bob");
        alice.findElement(testId("invite-submit")).click();
        waitFor(alice, driver -> driver.findElement(testId("chat-members")).getText().contains("bob"));
        assertThat(alice.findElement(testId("invite-error")).getText()).isEmpty();
        // Bob's socket tells his page he was added: the chat shows before anything is said in it.
        waitFor(bob, driver -> !driver.findElements(chatItem(chat)).isEmpty());
        send(alice, "Welcome, Bob");
        bob.findElement(chatItem(chat)).click();
        waitForTexts(bob, List.of("Welcome, Bob"));
        assertThat(bob.findElement(testId("chat-access")).getText()).startsWith("Private");
        assertThat(bob.findElement(testId("chat-members")).getText()).contains("alice");
    }

    /**
     * The page keeps its WebSocket; this is the other transport as a browser drives it. Bob's
     * server goes away under an open {@code EventSource}, which reconnects by itself when it is
     * back and sends the id of the last event it had: Bob gets what he missed, and nothing twice,
     * though he acknowledged nothing.
     */
    @Test
    void an_event_source_gets_messages_and_resumes_after_a_reconnect_without_a_gap_or_a_repeat() throws Exception {
        String chat = "sse-" + UUID.randomUUID().toString().substring(0, 8);
        bob.get("http://127.0.0.1:" + bobsServer.port() + "/");
        bob.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                window.received = [];
                window.opened = 0;
                fetch('/api/session', {method: 'POST', headers: {'Content-Type': 'application/json'},
                        body: JSON.stringify({user: 'bob'})})
                    .then(answer => answer.json())
                    .then(session => {
                        const events = new EventSource('/api/events?token=' + encodeURIComponent(session.token));
                        events.addEventListener('open', () => window.opened++);
                        events.addEventListener('message', event => {
                            const data = JSON.parse(event.data);
                            window.received.push(data.message.id + ' ' + data.message.message);
                            window.lastId = event.lastEventId;
                        });
                        window.events = events;
                        done();
                    });
                """);
        waitFor(bob, driver -> number(driver, "return window.opened") == 1);

        String alicesToken = signInOver(alicesServer, "alice");
        post(alicesServer, alicesToken, "/api/chats",
                "{\"members\":[\"bob\"],\"message\":\"first\",\"chatId\":\"" + chat + "\"}");
        waitFor(bob, driver -> received(driver).equals(List.of("1 first")));

        bobsServer.stop();
        waitFor(bob, driver -> number(driver, "return window.events.readyState") != 1);
        post(alicesServer, alicesToken, "/api/chats/" + chat + "/messages", "{\"message\":\"second\"}");
        post(alicesServer, alicesToken, "/api/chats/" + chat + "/messages", "{\"message\":\"third\"}");

        bobsServer.restart();
        waitFor(bob, RECONNECT_PATIENCE, driver -> number(driver, "return window.opened") == 2);
        waitFor(bob, driver -> received(driver).size() >= 3);
        assertThat(received(bob)).containsExactly("1 first", "2 second", "3 third");
        assertThat(bob.executeScript("return window.lastId")).isEqualTo(chat + ":3");
    }

    /**
     * The check after every test here can fail: the page's policy refuses what does not come from
     * the server's own files, an inline script or style among them, and the browser says so.
     */
    @Test
    void the_page_policy_refuses_inline_script_and_style_and_each_refusal_is_seen() {
        alice.get("http://127.0.0.1:" + alicesServer.port() + "/");
        alice.executeScript("""
                const script = document.createElement('script');
                script.textContent = 'window.inlineRan = true';
                document.head.append(script);
                document.body.setAttribute('style', 'background: red');
                """);

        waitFor(alice, driver -> Chromium.policyViolations(driver).size() == 2);
        assertThat(Chromium.policyViolations(alice)).containsExactlyInAnyOrder(
                "script-src-elem blocked inline", "style-src-attr blocked inline");
        assertThat(alice.executeScript("return window.inlineRan === true")).isEqualTo(false);
        // Seen, and made on purpose: the check after the test is for what the page itself needs.
        alice.executeScript("window.policyViolations.length = 0");
    }

    @SuppressWarnings("unchecked")
    private static List<String> received(ChromeDriver browser) {
        return (List<String>) browser.executeScript("return window.received");
    }

    private static long number(ChromeDriver browser, String script) {
        return ((Number) browser.executeScript(script)).longValue();
    }

    private static String signInOver(RunningServer server, String name) {
        return ApiClient.onPort(server.port()).signIn(name);
    }

    private static String post(RunningServer server, String token, String path, String json) {
        ApiClient.Response answer = ApiClient.onPort(server.port()).post(path, token, json);
        assertThat(answer.status()).as(answer.body()).isBetween(200, 201);
        return answer.body();
    }


    private static void waitForState(ChromeDriver browser, String state) {
        waitFor(browser, driver -> state.equals(connection(driver)));
    }






    private static By onlineUser(String user) {
        return item("online-user", "data-user", user);
    }
}
