package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attack: a stranger who was never invited reads a chat. It used to take two calls (join
 * yourself, then read from id 0), and chat ids counted 1, 2, 3, so every chat could be found.
 * Now the stranger gets 0 of the chat's messages, whatever it tries, on every store, and cannot
 * even tell the chat from one that does not exist; an invitee gets 0 of what was sent before it
 * came in.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreUnderTest.class)
class PrivateChatAbuseTest {


    private static final int EARLIER_MESSAGES = 5;

    @RegisterExtension
    final RunningServer server;
    private String alice;
    private String aliceToken;
    private String bob;

    PrivateChatAbuseTest(StoreUnderTest store) {
        this.server = RunningServer.on(store::config);
    }

    @BeforeEach
    void signIn() {
        alice = ApiClient.randomUser("alice");
        bob = ApiClient.randomUser("bob");
        aliceToken = server.api().signIn(alice);
    }

    @Test
    void a_stranger_reads_0_messages_of_a_private_chat_whatever_it_tries() {
        String chat = chatWithHistory(Map.of());
        String mallory = ApiClient.randomUser("mallory");
        String malloryToken = server.api().signIn(mallory);
        String base = "/api/chats/" + chat;

        assertProblem(server.api().post(base + "/members", malloryToken), 404, "unknown-chat");
        assertProblem(server.api().postJson(base + "/members", malloryToken, Map.of("user", mallory)), 404, "unknown-chat");
        assertProblem(server.api().postJson(base + "/members", malloryToken, Map.of("user", bob)), 404, "unknown-chat");
        assertProblem(server.api().get(base + "/messages?after=0", malloryToken), 404, "unknown-chat");
        assertProblem(server.api().postJson(base + "/read", malloryToken, Map.of("upTo", 1)), 404, "unknown-chat");
        assertProblem(server.api().postJson(base + "/messages", malloryToken, Map.of("message", "let me in")), 404,
                "unknown-chat");

        assertThat(ok(server.api().get("/api/chats", malloryToken)).values()).isEmpty();
        assertThat(ok(server.api().get("/api/pending", malloryToken)).get("chats").values()).isEmpty();
        JsonNode members = ok(server.api().get("/api/chats", aliceToken)).values().iterator().next().get("members");
        assertThat(members.values()).as("nothing changed").extracting(JsonNode::stringValue)
                .containsExactlyInAnyOrder(alice, bob);
    }

    @Test
    void a_stranger_cannot_tell_a_private_chat_from_a_missing_one() {
        String existing = chatWithHistory(Map.of());
        String missing = existing + "x";
        String malloryToken = server.api().signIn(ApiClient.randomUser("mallory"));
        List<Function<String, ApiClient.Response>> asks = List.of(
                chat -> server.api().get("/api/chats/" + chat + "/messages?after=0", malloryToken),
                chat -> server.api().postJson("/api/chats/" + chat + "/messages", malloryToken, Map.of("message", "hi")),
                chat -> server.api().post("/api/chats/" + chat + "/members", malloryToken));

        for (Function<String, ApiClient.Response> ask : asks) {
            ApiClient.Response toExisting = ask.apply(existing);
            ApiClient.Response toMissing = ask.apply(missing);
            assertProblem(toExisting, 404, "unknown-chat");
            assertProblem(toMissing, 404, "unknown-chat");
            assertThat(toExisting.json().get("title")).isEqualTo(toMissing.json().get("title"));
            assertThat(toExisting.json().get("detail").stringValue())
                    .isEqualTo(toMissing.json().get("detail").stringValue().replace(missing, existing));
        }
        assertThat(ok(server.api().get("/api/chats/" + existing + "/messages?after=0", aliceToken)).get("messages").values())
                .as("nothing was sent").hasSize(EARLIER_MESSAGES);
    }

    @Test
    void a_chosen_chat_id_in_use_is_still_a_conflict() {
        String chosen = ApiClient.randomUser("lunch");
        Map<String, Object> body = Map.of("members", List.of(bob), "message", "hi", "chatId", chosen);
        assertThat(server.api().postJson("/api/chats", aliceToken, body).status()).isEqualTo(201);

        assertProblem(server.api().postJson("/api/chats", server.api().signIn(ApiClient.randomUser("mallory")), body),
                409, "chat-exists");
    }

    @Test
    void a_generated_chat_id_cannot_be_found_by_counting() {
        String chat = chatWithHistory(Map.of());

        assertThat(chat).matches("[0-9A-Za-z]{22}");
        String second = chatWithHistory(Map.of());
        assertThat(second).matches("[0-9A-Za-z]{22}").isNotEqualTo(chat);
    }

    @Test
    void someone_invited_later_reads_0_of_the_messages_sent_before_it_came_in() {
        String chat = chatWithHistory(Map.of());
        String carol = ApiClient.randomUser("carol");
        String carolToken = server.api().signIn(carol);

        ApiClient.Response invited = server.api().postJson("/api/chats/" + chat + "/members", aliceToken, Map.of("user", carol));
        assertThat(invited.status()).as(invited.toString()).isEqualTo(204);

        JsonNode history = ok(server.api().get("/api/chats/" + chat + "/messages?after=0", carolToken));
        assertThat(history.get("messages").values()).as("of %d earlier messages", EARLIER_MESSAGES).isEmpty();
        assertThat(history.get("gap").booleanValue()).isFalse();
        assertThat(ok(server.api().get("/api/pending", carolToken)).get("chats").values())
                .allSatisfy(pending -> assertThat(pending.get("messages").values()).isEmpty());
        JsonNode listed = ok(server.api().get("/api/chats", carolToken)).values().iterator().next();
        assertThat(listed.get("unread").longValue()).isZero();
        assertThat(listed.get("open").booleanValue()).isFalse();

        server.send(aliceToken, chat, "welcome, carol");
        assertThat(ok(server.api().get("/api/chats/" + chat + "/messages?after=0", carolToken)).get("messages").values())
                .extracting(message -> message.get("message").stringValue()).containsExactly("welcome, carol");
    }

    @Test
    void anyone_joins_an_open_chat_by_itself_and_still_reads_nothing_from_before() {
        String chat = chatWithHistory(Map.of("open", true));
        String dave = ApiClient.randomUser("dave");
        String daveToken = server.api().signIn(dave);

        ApiClient.Response joined = server.api().post("/api/chats/" + chat + "/members", daveToken);

        assertThat(joined.status()).as(joined.toString()).isEqualTo(204);
        assertThat(ok(server.api().get("/api/chats/" + chat + "/messages?after=0", daveToken)).get("messages").values())
                .isEmpty();
        assertThat(ok(server.api().get("/api/chats", daveToken)).values().iterator().next().get("open").booleanValue()).isTrue();
        assertProblem(server.api().postJson("/api/chats/" + chat + "/members", server.api().signIn(ApiClient.randomUser("erin")),
                Map.of("user", dave)), 403, "not-a-member");
    }

    /** A chat of alice and bob with {@link #EARLIER_MESSAGES} messages in it. */
    private String chatWithHistory(Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("members", List.of(bob));
        body.put("message", "message 1");
        ApiClient.Response created = server.api().postJson("/api/chats", aliceToken, body);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String chat = created.json().get("chatId").stringValue();
        for (int n = 2; n <= EARLIER_MESSAGES; n++) {
            server.send(aliceToken, chat, "message " + n);
        }
        return chat;
    }

    private static JsonNode ok(ApiClient.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    private static void assertProblem(ApiClient.Response response, int status, String type) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        assertThat(response.json().get("type").stringValue()).isEqualTo("/problems/" + type);
    }
}
