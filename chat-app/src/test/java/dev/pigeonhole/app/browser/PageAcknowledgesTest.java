package dev.pigeonhole.app.browser;

import static dev.pigeonhole.app.browser.Page.testId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.app.AppConfig;
import dev.pigeonhole.app.RunningServer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The page acknowledges only what it has shown: up to the end of the unbroken run of ids from what
 * was read already. A message shown past a hole in that run (a live one after a catch-up cut
 * short) waits until a pull has filled the hole, since the server trims what everyone
 * acknowledged and the hole's messages could otherwise be lost unseen.
 */
@Timeout(120)
class PageAcknowledgesTest {


    /**
     * Before the page's own scripts: the socket can lose chosen messages, as a catch-up cut short
     * does, and every acknowledge is written down with the message ids on screen as it goes out.
     */
    private static final String LOSE_MESSAGES_AND_RECORD_ACKS = """
            window.lostIds = new Set();
            window.acks = [];
            const listen = WebSocket.prototype.addEventListener;
            WebSocket.prototype.addEventListener = function (type, listener, options) {
              if (type !== 'message') return listen.call(this, type, listener, options);
              return listen.call(this, type, (frame) => {
                try {
                  const event = JSON.parse(frame.data);
                  if (event.type === 'message' && window.lostIds.has(event.message.id)) return;
                } catch {
                  // not an event this test looks at
                }
                listener(frame);
              }, options);
            };
            const send = window.fetch;
            window.fetch = function (path, init) {
              if (init?.method === 'POST' && /\\/read$/.test(String(path))) {
                const shown = [...document.querySelectorAll("[data-testid='message']")]
                    .map((node) => Number(node.dataset.messageId));
                window.acks.push({ path: String(path), chats: JSON.parse(init.body).chats, shown });
              }
              return send.call(this, path, init);
            };
            """;

    @RegisterExtension
    final RunningServer server = RunningServer.on(AppConfig::defaults);
    private ChromeDriver browser;

    @BeforeEach
    void start() {
        browser = Chromium.start();
        browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", LOSE_MESSAGES_AND_RECORD_ACKS));
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void a_message_shown_past_a_hole_is_acknowledged_only_once_a_pull_has_filled_the_hole() {
        String alice = server.api().signIn(ApiClient.randomUser("alice"));
        String bob = ApiClient.randomUser("bob");
        String chat = "gap-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(server.api().postJson("/api/chats", alice, Map.of("members", List.of(bob), "message", "one", "chatId", chat))
                .status()).isEqualTo(201);

        browser.get("http://127.0.0.1:" + server.port() + "/#chat=" + chat);
        browser.findElement(testId("signin-name")).sendKeys(bob);
        browser.findElement(testId("signin-button")).click();
        waitFor(driver -> "live".equals(driver.findElement(testId("connection-state")).getDomAttribute("data-state")));
        waitFor(driver -> shownIds(driver).equals(List.of(1L)) && highestAck(driver) == 1);

        browser.executeScript("[2, 3, 4].forEach((id) => window.lostIds.add(id))");
        for (String text : List.of("two", "three", "four", "five")) {
            assertThat(server.api().postJson("/api/chats/" + chat + "/messages", alice, Map.of("message", text)).status())
                    .isEqualTo(201);
        }

        waitFor(driver -> highestAck(driver) == 5);
        assertThat(shownIds(browser)).containsExactly(1L, 2L, 3L, 4L, 5L);
        for (Map<String, Object> ack : acks(browser)) {
            // Every chat shown since the last acknowledgement goes in one batch; here there is one.
            assertThat(ack.get("path")).isEqualTo("/api/read");
            assertThat(List.copyOf(((Map<?, ?>) ack.get("chats")).keySet())).isEqualTo(List.of(chat));
            long upTo = upTo(ack);
            assertThat(((List<?>) ack.get("shown")).stream().map(id -> ((Number) id).longValue()).toList())
                    .as("on screen when acknowledging up to %d", upTo)
                    .containsAll(LongStream.rangeClosed(1, upTo).boxed().toList());
        }
        String bobsToken = server.api().signIn(bob);
        assertThat(server.api().get("/api/pending", bobsToken).json().get("chats").get(0).get("unread").asInt()).isZero();
    }

    /**
     * The page's acknowledgement waits a moment (300 ms) after what it shows: held here until the
     * test lets it go, so that what happens within that moment is the test's to choose.
     */
    private static final String HOLD_ACKNOWLEDGEMENTS = """
            window.heldAcks = [];
            const later = window.setTimeout;
            window.setTimeout = function (callback, delay, ...rest) {
              if (delay === 300) {
                window.heldAcks.push(() => callback(...rest));
                return 0;
              }
              return later.call(this, callback, delay, ...rest);
            };
            window.releaseAcks = () => window.heldAcks.splice(0).forEach((run) => run());
            """;

    @Test
    void a_chat_left_before_its_acknowledgement_went_out_is_acknowledged_with_the_next_in_one_request() {
        browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", HOLD_ACKNOWLEDGEMENTS));
        String alice = server.api().signIn(ApiClient.randomUser("alice"));
        String bob = ApiClient.randomUser("bob");
        String first = "first-" + UUID.randomUUID().toString().substring(0, 8);
        String second = "second-" + UUID.randomUUID().toString().substring(0, 8);
        for (String chat : List.of(first, second)) {
            assertThat(server.api().postJson("/api/chats", alice,
                    Map.of("members", List.of(bob), "message", "one", "chatId", chat)).status()).isEqualTo(201);
            assertThat(server.api().postJson("/api/chats/" + chat + "/messages", alice, Map.of("message", "two")).status())
                    .isEqualTo(201);
        }

        browser.get("http://127.0.0.1:" + server.port() + "/#chat=" + first);
        browser.findElement(testId("signin-name")).sendKeys(bob);
        browser.findElement(testId("signin-button")).click();
        waitFor(driver -> shownIds(driver).equals(List.of(1L, 2L)) && held(driver) > 0);
        long heldBefore = held(browser);
        // Bob moves on before the first chat's acknowledgement went out; the second is filled
        // and its own acknowledgement waits too.
        browser.findElement(By.cssSelector("[data-testid='chat-item'][data-chat-id='" + second + "']")).click();
        waitFor(driver -> driver.getCurrentUrl().endsWith("#chat=" + second) && shownIds(driver).equals(List.of(1L, 2L))
                && held(driver) > heldBefore);
        assertThat(acks(browser)).as("nothing goes out while the moment lasts").isEmpty();

        browser.executeScript("window.releaseAcks()");

        waitFor(driver -> !acks(driver).isEmpty());
        assertThat(acks(browser)).hasSize(1);
        assertThat(acks(browser).getFirst().get("chats")).isEqualTo(Map.of(first, 2L, second, 2L));
        String bobs = server.api().signIn(bob);
        assertThat(server.api().get("/api/pending", bobs).json().get("chats").values())
                .allSatisfy(chat -> assertThat(chat.get("unread").asInt()).isZero());
    }

    /** The run starts at what is read already, and passes over what the server no longer holds. */
    @Test
    void the_run_shown_starts_at_the_cursor_passes_what_the_server_dropped_and_stops_at_a_hole() {
        browser.get("http://127.0.0.1:" + server.port() + "/");

        @SuppressWarnings("unchecked")
        Map<String, Object> runs = (Map<String, Object>) browser.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                import('/state.js').then(({ ChatState }) => {
                  const message = (id) => ({ id, ts: '2026-11-21T10:00:00Z', sender: 'alice', message: 'm' + id });
                  const run = ({ cursor, firstAvailable, held }) => {
                    const state = new ChatState('reader-' + Math.random().toString(36).slice(2));
                    state.setChats([{ chatId: 'c', members: ['alice'], open: false, cursor, lastId: 9 }]);
                    if (firstAvailable) state.noteFirstAvailable('c', firstAvailable);
                    state.history.add('c', held.map(message));
                    const answer = { upTo: state.needsAck('c'), hole: state.hasHole('c') };
                    state.close();
                    return answer;
                  };
                  done({
                    fromTheCursor: run({ cursor: 5, held: [6, 7, 9] }),
                    pastWhatWasDropped: run({ cursor: 0, firstAvailable: 5, held: [5, 6] }),
                    nothingAfterAHole: run({ cursor: 0, held: [5, 6] }),
                    unbroken: run({ cursor: 2, held: [1, 2, 3, 4, 5, 6, 7, 8, 9] }),
                  });
                });
                """);

        assertThat(runs.get("fromTheCursor")).isEqualTo(Map.of("upTo", 7L, "hole", true));
        assertThat(runs.get("pastWhatWasDropped")).isEqualTo(Map.of("upTo", 6L, "hole", false));
        assertThat(runs.get("nothingAfterAHole")).isEqualTo(Map.of("upTo", 0L, "hole", true));
        assertThat(runs.get("unbroken")).isEqualTo(Map.of("upTo", 9L, "hole", false));
    }

    private static long held(ChromeDriver driver) {
        return ((Number) driver.executeScript("return window.heldAcks.length")).longValue();
    }

    private static List<Long> shownIds(ChromeDriver driver) {
        return driver.findElements(testId("message")).stream()
                .map(node -> Long.parseLong(node.getDomAttribute("data-message-id"))).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> acks(ChromeDriver driver) {
        return (List<Map<String, Object>>) driver.executeScript("return window.acks");
    }

    private static long highestAck(ChromeDriver driver) {
        return acks(driver).stream().mapToLong(PageAcknowledgesTest::upTo).max().orElse(0);
    }

    /** How far a batch of the one chat these tests open acknowledges it. */
    private static long upTo(Map<String, Object> ack) {
        return ((Map<?, ?>) ack.get("chats")).values().stream().mapToLong(up -> ((Number) up).longValue()).max()
                .orElse(0);
    }

    private void waitFor(java.util.function.Function<ChromeDriver, Boolean> condition) {
        Page.waitFor(browser, condition);
    }

}
