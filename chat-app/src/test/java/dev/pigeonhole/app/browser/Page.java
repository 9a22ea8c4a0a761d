package dev.pigeonhole.app.browser;

import com.deque.html.axecore.results.CheckedNode;
import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.results.Rule;
import com.deque.html.axecore.selenium.AxeBuilder;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every browser test does with the page, in one place: find its parts by their test ids,
 * sign in, wait for what it shows, read the open chat's messages and the connection's state, and
 * ask axe-core what it finds wrong with the page as it stands.
 */
final class Page {

    /** How long the page has to show what a test waits for, unless the test says otherwise. */
    static final Duration PATIENCE = Duration.ofSeconds(15);

    /** What the page is held to: WCAG 2 at levels A and AA, and axe-core's best practices. */
    private static final List<String> ACCESSIBILITY_TAGS = List.of("wcag2a", "wcag2aa", "best-practice");

    private Page() {
    }

    static By testId(String id) {
        return By.cssSelector("[data-testid='" + id + "']");
    }

    /** One item of a list the page draws, found by the attribute that names it. */
    static By item(String testId, String attribute, String value) {
        return By.cssSelector("[data-testid='" + testId + "'][" + attribute + "='" + value + "']");
    }

    static By chatItem(String chat) {
        return item("chat-item", "data-chat-id", chat);
    }

    /** Opens the page of the server on {@code port} and signs in as {@code name}, through the form. */
    static void signIn(ChromeDriver browser, int port, String name) {
        browser.get("http://127.0.0.1:" + port + "/");
        browser.findElement(testId("signin-name")).sendKeys(name);
        browser.findElement(testId("signin-button")).click();
        waitFor(browser, driver -> name.equals(driver.findElement(testId("me-name")).getText()));
    }

    /** Types {@code text} into the open chat's box and sends it with Enter, as a person does. */
    static void send(ChromeDriver browser, String text) {
        WebElement input = browser.findElement(testId("message-input"));
        input.sendKeys(text);
        input.sendKeys(Keys.ENTER);
    }

    static void waitFor(ChromeDriver browser, Function<ChromeDriver, Boolean> condition) {
        waitFor(browser, PATIENCE, condition);
    }

    static void waitFor(ChromeDriver browser, Duration patience, Function<ChromeDriver, Boolean> condition) {
        // Lists are drawn again as events come: an element read mid-redraw is simply read again.
        new WebDriverWait(browser, patience).ignoring(StaleElementReferenceException.class)
                .until(driver -> condition.apply((ChromeDriver) driver));
    }

    /** The open chat shows exactly these messages, in this order: none missing, none twice. */
    static void waitForTexts(ChromeDriver browser, List<String> expected) {
        try {
            waitFor(browser, driver -> texts(driver).equals(expected));
        } catch (TimeoutException e) {
            assertThat(texts(browser)).as("messages shown").containsExactlyElementsOf(expected);
        }
    }

    static List<String> texts(ChromeDriver browser) {
        return browser.findElements(By.cssSelector("[data-testid='message'] .message-text")).stream()
                .map(WebElement::getText).toList();
    }

    /** What the page says of its live connection: {@code live}, {@code polling}, {@code offline}… */
    static String connection(ChromeDriver browser) {
        return browser.findElement(testId("connection-state")).getDomAttribute("data-state");
    }

    /**
     * What axe-core finds wrong with the page as it is on screen now, one line per rule broken:
     * its id, how much it matters, and the elements that break it, so that a failing assertion
     * says what to fix and where. Hidden parts of the page are not checked, so a test shows each
     * view before it asks.
     */
    static List<String> accessibilityViolations(ChromeDriver browser) {
        Results results = new AxeBuilder().withTags(ACCESSIBILITY_TAGS).analyze(browser);
        if (results.isErrored()) {
            throw new IllegalStateException("axe-core did not finish: " + results.getErrorMessage());
        }
        return results.getViolations().stream().map(Page::describe).toList();
    }

    private static String describe(Rule rule) {
        List<Object> targets = rule.getNodes().stream().map(CheckedNode::getTarget).toList();
        return rule.getId() + " (" + rule.getImpact() + ", " + targets.size() + "×): " + rule.getHelp() + " at " + targets;
    }
}
