package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.FieldSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two server instances behind one load balancer, as a deployment runs them: one Redis, one key
 * prefix, one JWT secret. The two talk to Redis through different clients, each client once on
 * either side ({@link ClientPair#RING}), so this also shows the clients read and write the same
 * data the same way.
 */
@ParameterizedClass(name = "{0}")
@FieldSource("dev.pigeonhole.app.ClientPair#RING")
class TwoInstancesTest {

    @RegisterExtension
    final RunningServer oneSide;
    @RegisterExtension
    final RunningServer otherSide;
    @RegisterExtension
    final RunningServer stranger = RunningServer.startedByTheTest();
    private final ClientPair clients;

    TwoInstancesTest(ClientPair clients) {
        this.clients = clients;
        RedisTarget redis = RedisServers.single();
        oneSide = RunningServer.on(() -> TestConfigs.onRedis(redis, redis.newPrefix(), clients.one()));
        otherSide = oneSide.alongside(clients::theOther);
    }

    @Test
    void a_token_from_one_instance_is_accepted_by_the_other_and_one_under_another_secret_is_not() {
        String fromOneSide = oneSide.api().signIn(ApiClient.randomUser("alice"));
        String fromOtherSide = otherSide.api().signIn(ApiClient.randomUser("bob"));

        assertThat(otherSide.api().get("/api/chats", fromOneSide).status()).isEqualTo(200);
        assertThat(oneSide.api().get("/api/chats", fromOtherSide).status()).isEqualTo(200);

        stranger.start(AppConfig.defaults());
        assertThat(stranger.secret()).as("another deployment's secret").isNotEqualTo(oneSide.secret());
        String foreign = stranger.api().signIn(ApiClient.randomUser("mallory"));
        assertThat(oneSide.api().get("/api/chats", foreign).status()).isEqualTo(401);
        assertThat(otherSide.api().get("/api/chats", foreign).status()).isEqualTo(401);
    }

    @Test
    void a_message_sent_through_one_instance_is_pending_through_the_other_both_ways() {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = oneSide.api().signIn(alice);
        String bobToken = otherSide.api().signIn(bob);

        String chat = oneSide.openChat(aliceToken, List.of(bob), "hi");
        oneSide.send(aliceToken, chat, "from " + clients.one());

        JsonNode bobsPending = pendingChat(otherSide.api(), bobToken, chat);
        assertThat(texts(bobsPending)).containsExactly("hi", "from " + clients.one());
        assertThat(bobsPending.get("unread").longValue()).isEqualTo(2);

        ApiClient.Response reply = otherSide.api().postJson("/api/chats/" + chat + "/messages", bobToken,
                Map.of("message", "from " + clients.other()));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(reply.json().get("id").longValue()).as("ids continue across instances").isEqualTo(3);

        JsonNode alicesPending = pendingChat(oneSide.api(), aliceToken, chat);
        assertThat(texts(alicesPending)).containsExactly("from " + clients.other());
        assertThat(alicesPending.get("messages").get(0).get("sender").stringValue()).isEqualTo(bob);

        // An acknowledgement through one instance is the cursor both see.
        assertThat(oneSide.api().postJson("/api/chats/" + chat + "/read", bobToken, Map.of("upTo", 3)).status()).isEqualTo(204);
        assertThat(pendingChat(otherSide.api(), bobToken, chat).get("unread").longValue()).isZero();
    }

    private static JsonNode pendingChat(ApiClient api, String token, String chat) {
        ApiClient.Response pending = api.get("/api/pending", token);
        assertThat(pending.status()).as(pending.toString()).isEqualTo(200);
        List<JsonNode> chats = pending.json().get("chats").values().stream().toList();
        assertThat(chats).singleElement().satisfies(entry -> assertThat(entry.get("chatId").stringValue()).isEqualTo(chat));
        return chats.getFirst();
    }

    private static List<String> texts(JsonNode pendingChat) {
        return pendingChat.get("messages").values().stream().map(message -> message.get("message").stringValue()).toList();
    }
}
