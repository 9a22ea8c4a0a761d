package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two server instances behind one load balancer, as a deployment runs them: one Redis, one key
 * prefix, one JWT secret. One instance talks to Redis through Jedis, the other through Lettuce,
 * so this also shows the two clients read and write the same data the same way.
 */
class TwoInstancesTest {

    private Server jedisSide;
    private Server lettuceSide;
    private ApiClient throughJedis;
    private ApiClient throughLettuce;
    private String secret;

    @BeforeEach
    void start() {
        RedisTarget redis = RedisServers.single();
        String prefix = redis.newPrefix();
        secret = newSecret();
        ServerConfig server = ServerConfig.defaults().withPort(0).withJwtSecret(secret).withDevLogin(true);
        jedisSide = Server.start(onRedis(redis, prefix, RedisClientKind.JEDIS), server, InstantSource.system());
        lettuceSide = Server.start(onRedis(redis, prefix, RedisClientKind.LETTUCE), server, InstantSource.system());
        throughJedis = ApiClient.onPort(jedisSide.port());
        throughLettuce = ApiClient.onPort(lettuceSide.port());
    }

    private static AppConfig onRedis(RedisTarget redis, String prefix, RedisClientKind client) {
        return AppConfig.defaults().withRedis(RedisConfig.defaults()
                .withClient(client).withEndpoint(LiveServers.endpoint(redis)).withKeyPrefix(prefix)
                .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10)));
    }

    @AfterEach
    void stop() {
        try {
            if (jedisSide != null) {
                jedisSide.close();
            }
        } finally {
            if (lettuceSide != null) {
                lettuceSide.close();
            }
        }
    }

    @Test
    void a_token_from_one_instance_is_accepted_by_the_other_and_one_under_another_secret_is_not() {
        String fromJedisSide = throughJedis.signIn(ApiClient.randomUser("alice"));
        String fromLettuceSide = throughLettuce.signIn(ApiClient.randomUser("bob"));

        assertThat(throughLettuce.get("/api/chats", fromJedisSide).status()).isEqualTo(200);
        assertThat(throughJedis.get("/api/chats", fromLettuceSide).status()).isEqualTo(200);

        String otherSecret;
        do {
            otherSecret = newSecret();
        } while (otherSecret.equals(secret));
        try (Server stranger = Server.start(AppConfig.defaults(),
                ServerConfig.defaults().withPort(0).withJwtSecret(otherSecret).withDevLogin(true), InstantSource.system())) {
            String foreign = ApiClient.onPort(stranger.port()).signIn(ApiClient.randomUser("mallory"));
            assertThat(throughJedis.get("/api/chats", foreign).status()).isEqualTo(401);
            assertThat(throughLettuce.get("/api/chats", foreign).status()).isEqualTo(401);
        }
    }

    @Test
    void a_message_sent_through_one_instance_is_pending_through_the_other_both_ways() {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = throughJedis.signIn(alice);
        String bobToken = throughLettuce.signIn(bob);

        ApiClient.Response created = throughJedis.postJson("/api/chats", aliceToken, Map.of("members", List.of(bob), "message", "hi"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String chat = created.json().get("chatId").stringValue();
        assertThat(throughJedis.postJson("/api/chats/" + chat + "/messages", aliceToken, Map.of("message", "from jedis"))
                .status()).isEqualTo(201);

        JsonNode bobsPending = pendingChat(throughLettuce, bobToken, chat);
        assertThat(texts(bobsPending)).containsExactly("hi", "from jedis");
        assertThat(bobsPending.get("unread").longValue()).isEqualTo(2);

        ApiClient.Response reply = throughLettuce.postJson("/api/chats/" + chat + "/messages", bobToken, Map.of("message", "from lettuce"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(reply.json().get("id").longValue()).as("ids continue across instances").isEqualTo(3);

        JsonNode alicesPending = pendingChat(throughJedis, aliceToken, chat);
        assertThat(texts(alicesPending)).containsExactly("from lettuce");
        assertThat(alicesPending.get("messages").get(0).get("sender").stringValue()).isEqualTo(bob);

        // An acknowledgement through one instance is the cursor both see.
        assertThat(throughJedis.postJson("/api/chats/" + chat + "/read", bobToken, Map.of("upTo", 3)).status()).isEqualTo(204);
        assertThat(pendingChat(throughLettuce, bobToken, chat).get("unread").longValue()).isZero();
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

    private static String newSecret() {
        byte[] bytes = new byte[48];
        new SecureRandom().nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }
}
