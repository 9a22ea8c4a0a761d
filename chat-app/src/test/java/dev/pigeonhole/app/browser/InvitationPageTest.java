package dev.pigeonhole.app.browser;

import static dev.pigeonhole.app.browser.Page.chatItem;
import static dev.pigeonhole.app.browser.Page.connection;
import static dev.pigeonhole.app.browser.Page.item;
import static dev.pigeonhole.app.browser.Page.signIn;
import static dev.pigeonhole.app.browser.Page.testId;
import static dev.pigeonhole.app.browser.Page.waitFor;
import static dev.pigeonhole.app.browser.Page.waitForTexts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.app.AppConfig;
import dev.pigeonhole.app.RunningServer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Consent on the page, in real headless Chromium against a server left at its default add policy
 * ({@code co-members}): a stranger's new chat reaches the invitee as an invitation, live, and
 * only the invitee's answer makes it a chat of theirs or makes it go away.
 */
@Timeout(150)
class InvitationPageTest {

    /** As shipped: the extension's servers otherwise let anyone add, which leaves no invitation to show. */
    @RegisterExtension
    final RunningServer server = RunningServer.on(AppConfig::defaults).asShipped();
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
    void a_strangers_chat_waits_as_an_invitation_until_accepted_and_a_declined_one_goes_away() {
        String lunch = "lunch-" + UUID.randomUUID().toString().substring(0, 8);
        signIn(alice, server.port(), "alice");
        signIn(bob, server.port(), "bob");
        waitFor(alice, driver -> "live".equals(connection(driver)));
        waitFor(bob, driver -> "live".equals(connection(driver)));
        assertThat(bob.findElements(testId("invitation"))).as("invitations before anyone asked").isEmpty();

        alice.findElement(testId("new-chat-button")).click();
        alice.findElement(testId("new-chat-members")).sendKeys("bob");
        alice.findElement(testId("new-chat-id")).sendKeys(lunch);
        alice.findElement(testId("new-chat-message")).sendKeys("Lunch at noon?");
        alice.findElement(testId("new-chat-submit")).click();
        waitFor(alice, driver -> !driver.findElements(chatItem(lunch)).isEmpty());

        // The live event brings it: no reload, and no poll runs while the socket is up. Bob is
        // not in the chat yet, so it is not in his list.
        waitFor(bob, driver -> !driver.findElements(invitation(lunch)).isEmpty());
        WebElement invited = bob.findElement(invitation(lunch));
        assertThat(invited.getDomAttribute("data-inviter")).isEqualTo("alice");
        assertThat(invited.findElement(testId("invitation-chat")).getText()).isEqualTo(lunch);
        // Members are those who are in: alice alone, while bob is only invited.
        assertThat(invited.findElement(testId("invitation-members")).getText()).startsWith("1 member ");
        assertThat(bob.findElements(chatItem(lunch))).as("bob's chats while invited").isEmpty();

        invited.findElement(testId("invitation-accept")).click();

        // Accepted: the chat joins his list, opens, and the message that came with the invitation is there.
        waitFor(bob, driver -> !driver.findElements(chatItem(lunch)).isEmpty());
        waitFor(bob, driver -> lunch.equals(driver.findElement(testId("chat-title")).getText()));
        waitForTexts(bob, List.of("Lunch at noon?"));
        assertThat(bob.findElements(invitation(lunch))).as("the accepted invitation").isEmpty();

        // Alice shares a chat with bob now, so her next add would be direct: a second invitation
        // comes from carol, whom bob has never met.
        String party = openChatWithBob(server.api().signIn("carol"), "party");

        waitFor(bob, driver -> !driver.findElements(invitation(party)).isEmpty());
        assertThat(bob.findElement(invitation(party)).getDomAttribute("data-inviter")).isEqualTo("carol");
        bob.findElement(invitation(party)).findElement(testId("invitation-decline")).click();

        waitFor(bob, driver -> driver.findElements(invitation(party)).isEmpty());
        assertThat(bob.findElements(chatItem(party))).as("bob's chats after declining").isEmpty();
        assertThat(bob.findElements(testId("toast")).stream().filter(t -> "error".equals(t.getDomAttribute("data-kind"))))
                .as("errors shown").isEmpty();
        // The server agrees: nothing waits for bob any more.
        assertThat(server.api().get("/api/invitations", server.api().signIn("bob")).body())
                .isEqualTo("{\"invitations\":[]}");
    }

    /**
     * The rest of consent on the page: a block from an invitation takes all of that inviter's
     * invitations with it and is listed until undone, and choosing "anyone" makes a stranger's
     * add direct.
     */
    @Test
    void decline_and_block_clears_the_inviter_and_choosing_anyone_lets_a_stranger_add_directly() {
        signIn(bob, server.port(), "bob");
        waitFor(bob, driver -> "live".equals(connection(driver)));
        String carol = server.api().signIn("carol");
        String first = openChatWithBob(carol, "first");
        String second = openChatWithBob(carol, "second");
        waitFor(bob, driver -> driver.findElements(testId("invitation")).size() == 2);

        bob.findElement(invitation(first)).findElement(testId("invitation-block")).click();

        waitFor(bob, driver -> driver.findElements(testId("invitation")).isEmpty());
        assertThat(bob.findElements(chatItem(second))).as("bob's chats after blocking carol").isEmpty();
        bob.findElement(By.cssSelector("[data-testid='reach-settings'] summary")).click();
        waitFor(bob, driver -> !driver.findElements(blockedUser("carol")).isEmpty());
        String bobsToken = server.api().signIn("bob");
        assertThat(server.api().get("/api/blocks", bobsToken).body()).contains("carol");
        assertThat(server.api().get("/api/invitations", bobsToken).body()).contains("\"invitations\":[]");

        assertThat(bob.findElement(testId("add-policy-co-members")).isSelected()).as("the server's default").isTrue();
        bob.findElement(testId("add-policy-anyone")).click();
        waitFor(bob, driver -> server.api().get("/api/settings", bobsToken).body().contains("anyone"));
        String direct = openChatWithBob(server.api().signIn("dave"), "direct");
        waitFor(bob, driver -> !driver.findElements(chatItem(direct)).isEmpty());
        assertThat(bob.findElements(testId("invitation"))).as("invitations once anyone may add").isEmpty();

        bob.findElement(blockedUser("carol")).findElement(By.tagName("button")).click();
        waitFor(bob, driver -> driver.findElements(blockedUser("carol")).isEmpty());
        assertThat(server.api().get("/api/blocks", bobsToken).body()).doesNotContain("carol");
    }

    private String openChatWithBob(String token, String name) {
        String chat = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        ApiClient.Response created = server.api().postJson("/api/chats", token,
                Map.of("chatId", chat, "members", List.of("bob"), "message", "Hello from " + name));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return chat;
    }








    private static By blockedUser(String user) {
        return item("blocked-user", "data-user", user);
    }

    private static By invitation(String chat) {
        return item("invitation", "data-chat-id", chat);
    }
}
