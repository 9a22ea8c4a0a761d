package dev.pigeonhole.app.browser;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium, driven through Debian's ChromeDriver named by path: Selenium never looks
 * for, nor downloads, a browser or a driver of its own. {@code CHROMIUM} and {@code CHROMEDRIVER}
 * point elsewhere. Without them the browser tests are skipped, loudly; with {@code CI=true} they fail.
 */
final class Chromium {

    private static final Path BROWSER = Path.of(env("CHROMIUM", "/usr/bin/chromium"));
    private static final Path DRIVER = Path.of(env("CHROMEDRIVER", "/usr/bin/chromedriver"));

    private Chromium() {
    }

    /** A fresh, headless browser with a profile of its own: one user's browser context. */
    static ChromeDriver start() {
        requireInstalled();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
                "--disable-gpu", "--no-first-run", "--disable-extensions");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
        // Before any script of a page runs, so what the policy blocks while the page loads is kept too.
        driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", RECORD_POLICY_VIOLATIONS));
        return driver;
    }

    private static final String RECORD_POLICY_VIOLATIONS = """
            window.policyViolations = [];
            document.addEventListener('securitypolicyviolation', violation =>
                window.policyViolations.push(violation.effectiveDirective + ' blocked ' + (violation.blockedURI || 'inline')));
            """;

    /**
     * What the page's Content-Security-Policy has blocked since it loaded, one line each: a page
     * that needs something the policy forbids has lost it, even if nothing on screen shows it yet.
     */
    @SuppressWarnings("unchecked")
    static List<String> policyViolations(ChromeDriver driver) {
        return (List<String>) driver.executeScript("return window.policyViolations || []");
    }

    private static void requireInstalled() {
        boolean installed = Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
        String reason = "the browser tests need Chromium at " + BROWSER + " and ChromeDriver at " + DRIVER
                + " (apt-get install chromium chromium-driver, or set CHROMIUM and CHROMEDRIVER)";
        if (!installed && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException("CI=true and " + reason);
        }
        if (!installed) {
            System.err.println("SKIPPED: " + reason);
        }
        Assumptions.assumeTrue(installed, reason);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    static File screenshotFolder() {
        File folder = new File("target/screenshots");
        folder.mkdirs();
        return folder;
    }
}
