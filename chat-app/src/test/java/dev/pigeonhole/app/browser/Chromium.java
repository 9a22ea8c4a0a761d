package dev.pigeonhole.app.browser;

import dev.pigeonhole.testsupport.CiPolicy;
import dev.pigeonhole.testsupport.Programs;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium, driven through Debian's ChromeDriver named by path: Selenium never looks
 * for, nor downloads, a browser or a driver of its own. They are found as every program the tests
 * run is: {@code CHROMIUM} and {@code CHROMEDRIVER} name them, else they come from the
 * {@code PATH}; without them the browser tests are skipped saying why, and fail on CI
 * ({@link CiPolicy}).
 */
final class Chromium {

    private static final String MISSING = "the browser tests need Chromium and its ChromeDriver (apt-get install "
            + "chromium chromium-driver, or set CHROMIUM and CHROMEDRIVER)";

    private Chromium() {
    }

    /** A fresh, headless browser with a profile of its own: one user's browser context. */
    static ChromeDriver start() {
        Path browser = program("CHROMIUM", "chromium");
        Path driverProgram = program("CHROMEDRIVER", "chromedriver");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
                "--disable-gpu", "--no-first-run", "--disable-extensions");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driverProgram.toFile())
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

    /** The program the variable names, or the one of that name on the PATH. */
    private static Path program(String variable, String name) {
        String named = System.getenv(variable);
        if (named != null && !named.isBlank()) {
            Path program = Path.of(named);
            return Files.isExecutable(program) ? program
                    : CiPolicy.unavailable(variable + " names " + named + ", which is not a program: " + MISSING);
        }
        return Programs.find(List.of(name), List.of()).map(programs -> programs.path(name))
                .orElseGet(() -> CiPolicy.unavailable("No " + name + " on the PATH: " + MISSING));
    }

    static File screenshotFolder() {
        File folder = new File("target/screenshots");
        folder.mkdirs();
        return folder;
    }
}
