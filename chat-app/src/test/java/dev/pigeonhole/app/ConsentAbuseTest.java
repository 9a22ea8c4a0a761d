package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import static dev.pigeonhole.adapter.http.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attacks of consent, on every store and the server as it ships (only co-members add one
 * directly): strangers who put a victim into chats of their own, a stalker who watches a victim
 * come online, and a crowd of throwaway accounts that fill a mailbox so a friend's message no
 * longer gets in. Each used to work; none does now.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreUnderTest.class)
class ConsentAbuseTest {

    private static final int MAILBOX = 40;
    private static final int STRANGERS_SHARE = MAILBOX / 10;

    @RegisterExtension
    final RunningServer server;
    private String victim;
    private String victimToken;

    ConsentAbuseTest(StoreUnderTest store) {
        this.server = RunningServer.on(() -> {
            AppConfig config = store.config();
            return config.withLimits(config.limits().withMailboxCapacity(MAILBOX));
        }).asShipped();
    }

    @BeforeEach
    void signIn() {
        victim = ApiClient.randomUser("victim");
        victimToken = server.api().signIn(victim);
    }

    @Test
    void strangers_who_add_a_victim_to_their_chats_only_invite_it_and_learn_nothing() {
        List<String> chats = new ArrayList<>();
        for (int stranger = 0; stranger < 3; stranger++) {
            String token = server.api().signIn(ApiClient.randomUser("stranger"));
            for (int chat = 0; chat < 2; chat++) {
                ApiClient.Response created = server.api().postJson("/api/chats", token,
                        Map.of("members", List.of(victim), "message", "you are in my chat now"));
                assertThat(created.status()).as(created.toString()).isEqualTo(201);
                chats.add(created.json().get("chatId").stringValue());
            }
        }

        assertThat(ok(server.api().get("/api/chats", victimToken)).values()).as("the victim's chat list").isEmpty();
        assertThat(ok(server.api().get("/api/pending", victimToken)).get("chats").values()).isEmpty();
        assertThat(ok(server.api().get("/api/invitations", victimToken)).get("invitations").values())
                .extracting(invitation -> invitation.get("chatId").stringValue())
                .containsExactlyInAnyOrderElementsOf(chats);
    }

    @Test
    void a_stalker_sees_nothing_of_its_victim_until_the_victim_accepts() {
        String stalker = ApiClient.randomUser("stalker");
        String stalkerToken = server.api().signIn(stalker);
        String chat = server.openChat(stalkerToken, List.of(victim), "hello, I made us a chat");
        server.api().get("/api/chats", victimToken);

        assertThat(online(stalkerToken)).as("the stalker's view of who is online").doesNotContain(victim);
        assertProblem(server.api().get("/api/chats/" + chat + "/messages?after=0", victimToken), 404, "unknown-chat");

        assertThat(server.api().post("/api/invitations/" + chat + "/accept", victimToken).status()).isEqualTo(204);

        assertThat(online(stalkerToken)).contains(victim);
        assertThat(ok(server.api().get("/api/chats/" + chat + "/messages?after=0", victimToken)).get("messages").values())
                .extracting(message -> message.get("message").stringValue())
                .containsExactly("hello, I made us a chat");
    }

    @Test
    void a_victim_who_left_is_invited_again_not_added_and_a_block_silences_the_stranger() {
        String stranger = ApiClient.randomUser("stranger");
        String strangerToken = server.api().signIn(stranger);
        String chat = server.openChat(strangerToken, List.of(victim), "join me");
        assertThat(server.api().post("/api/invitations/" + chat + "/accept", victimToken).status()).isEqualTo(204);
        assertThat(server.api().delete("/api/chats/" + chat + "/members/" + victim, victimToken).status()).isEqualTo(204);

        ApiClient.Response again = server.api().postJson("/api/chats/" + chat + "/members", strangerToken,
                Map.of("user", victim));

        assertThat(again.status()).as(again.toString()).isEqualTo(204);
        assertThat(ok(server.api().get("/api/chats", victimToken)).values()).isEmpty();
        assertThat(invitations()).containsExactly(chat);

        assertThat(server.api().postJson("/api/blocks", victimToken, Map.of("user", stranger)).status()).isEqualTo(204);

        assertThat(invitations()).as("a blocked user's invitations vanish").isEmpty();
        assertThat(server.api().postJson("/api/chats", strangerToken, Map.of("members", List.of(victim), "message",
                "and another")).status()).as("its answer is unchanged").isEqualTo(201);
        assertThat(invitations()).isEmpty();
        assertProblem(server.api().postJson("/api/users/" + victim + "/mailbox", strangerToken, Map.of("message", "hey")),
                429, "rate-limited");
    }

    @Test
    void throwaway_accounts_hold_a_tenth_of_a_mailbox_and_a_friend_still_gets_through() {
        String friend = ApiClient.randomUser("friend");
        String friendToken = server.api().signIn(friend);
        String chat = server.openChat(friendToken, List.of(victim), "hi, it's me");
        assertThat(server.api().post("/api/invitations/" + chat + "/accept", victimToken).status()).isEqualTo(204);

        int delivered = 0;
        ApiClient.Response refused = null;
        for (int account = 0; account <= STRANGERS_SHARE; account++) {
            String token = server.api().signIn(ApiClient.randomUser("throwaway"));
            ApiClient.Response response = server.api().postJson("/api/users/" + victim + "/mailbox", token,
                    Map.of("message", "spam " + account));
            if (response.status() == 201) {
                delivered++;
            } else {
                refused = response;
            }
        }

        assertThat(delivered).isEqualTo(STRANGERS_SHARE);
        assertProblem(refused, 429, "rate-limited");
        assertThat(server.api().postJson("/api/users/" + victim + "/mailbox", friendToken, Map.of("message", "lunch?"))
                .status()).as("a friend's message").isEqualTo(201);
        assertThat(ok(server.api().get("/api/mailbox?max=100", victimToken)).get("messages").values())
                .hasSize(STRANGERS_SHARE + 1);
    }

    private List<String> invitations() {
        return ok(server.api().get("/api/invitations", victimToken)).get("invitations").values().stream()
                .map(invitation -> invitation.get("chatId").stringValue()).toList();
    }

    private List<String> online(String token) {
        return ok(server.api().get("/api/presence?within=PT10S", token)).get("online").values().stream()
                .map(JsonNode::stringValue).toList();
    }

    private static JsonNode ok(ApiClient.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }
}
