package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two server instances behind one load balancer, as a deployment runs them: one Redis, one key
 * prefix, one JWT secret. One instance talks to Redis through Jedis, the other through Lettuce,
 * so this also shows the two clients read and write the same data the same way.
 */
class TwoInstancesTest {

    @RegisterExtension
    final RunningServer jedisSide = RunningServer.on(StoreUnderTest.REDIS_THROUGH_JEDIS::config);
    @RegisterExtension
    final RunningServer lettuceSide = jedisSide.alongside(TwoInstancesTest::throughLettuce);
    @RegisterExtension
    final RunningServer stranger = RunningServer.startedByTheTest();

    private static AppConfig throughLettuce(AppConfig config) {
        return config.withRedis(config.redis().withClient(RedisClientKind.LETTUCE));
    }

    @Test
    void a_token_from_one_instance_is_accepted_by_the_other_and_one_under_another_secret_is_not() {
        String fromJedisSide = jedisSide.api().signIn(ApiClient.randomUser("alice"));
        String fromLettuceSide = lettuceSide.api().signIn(ApiClient.randomUser("bob"));

        assertThat(lettuceSide.api().get("/api/chats", fromJedisSide).status()).isEqualTo(200);
        assertThat(jedisSide.api().get("/api/chats", fromLettuceSide).status()).isEqualTo(200);

        stranger.start(AppConfig.defaults());
        assertThat(stranger.secret()).as("another deployment's secret").isNotEqualTo(jedisSide.secret());
        String foreign = stranger.api().signIn(ApiClient.randomUser("mallory"));
        assertThat(jedisSide.api().get("/api/chats", foreign).status()).isEqualTo(401);
        assertThat(lettuceSide.api().get("/api/chats", foreign).status()).isEqualTo(401);
    }

    @Test
    void a_message_sent_through_one_instance_is_pending_through_the_other_both_ways() {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = jedisSide.api().signIn(alice);
        String bobToken = lettuceSide.api().signIn(bob);

        String chat = jedisSide.openChat(aliceToken, List.of(bob), "hi");
        jedisSide.send(aliceToken, chat, "from jedis");

        JsonNode bobsPending = pendingChat(lettuceSide.api(), bobToken, chat);
        assertThat(texts(bobsPending)).containsExactly("hi", "from jedis");
        assertThat(bobsPending.get("unread").longValue()).isEqualTo(2);

        ApiClient.Response reply = lettuceSide.api().postJson("/api/chats/" + chat + "/messages", bobToken,
                Map.of("message", "from lettuce"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(reply.json().get("id").longValue()).as("ids continue across instances").isEqualTo(3);

        JsonNode alicesPending = pendingChat(jedisSide.api(), aliceToken, chat);
        assertThat(texts(alicesPending)).containsExactly("from lettuce");
        assertThat(alicesPending.get("messages").get(0).get("sender").stringValue()).isEqualTo(bob);

        // An acknowledgement through one instance is the cursor both see.
        assertThat(jedisSide.api().postJson("/api/chats/" + chat + "/read", bobToken, Map.of("upTo", 3)).status()).isEqualTo(204);
        assertThat(pendingChat(lettuceSide.api(), bobToken, chat).get("unread").longValue()).isZero();
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
