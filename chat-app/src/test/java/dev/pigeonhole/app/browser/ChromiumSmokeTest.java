package dev.pigeonhole.app.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.app.AppConfig;
import dev.pigeonhole.app.Server;
import dev.pigeonhole.app.ServerConfig;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

class ChromiumSmokeTest {

    @Test
    void the_page_opens_in_chromium() {
        try (Server server = Server.start(AppConfig.defaults(), ServerConfig.defaults().withPort(0), InstantSource.system())) {
            ChromeDriver browser = Chromium.start();
            try {
                browser.get("http://127.0.0.1:" + server.port() + "/");
                assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Pigeonhole");
            } finally {
                browser.quit();
            }
        }
    }
}
