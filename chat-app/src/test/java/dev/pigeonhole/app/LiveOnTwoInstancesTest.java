package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.LiveClient;
import dev.pigeonhole.adapter.redis.fixture.RedisServers;
import dev.pigeonhole.adapter.redis.fixture.RedisTarget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances on one Redis, as behind a load balancer: a message sent through either reaches
 * the sockets of both, since each instance hears the chat's channel, not its own HTTP requests.
 * One instance talks to Redis through Jedis, the other through Lettuce.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(LiveOnTwoInstancesTest.Topology.class)
class LiveOnTwoInstancesTest {

    enum Topology {
        SINGLE_NODE, CLUSTER
    }

    private final Topology topology;
    private Server throughJedis;
    private Server throughLettuce;

    LiveOnTwoInstancesTest(Topology topology) {
        this.topology = topology;
    }

    @BeforeEach
    void start() {
        RedisTarget redis = topology == Topology.CLUSTER ? RedisServers.cluster() : RedisServers.single();
        String prefix = redis.newPrefix();
        String secret = LiveServers.newSecret();
        throughJedis = LiveServers.start(LiveServers.onRedis(redis.endpoint(), prefix, RedisConfig.Client.JEDIS), secret);
        throughLettuce = LiveServers.start(LiveServers.onRedis(redis.endpoint(), prefix, RedisConfig.Client.LETTUCE), secret);
    }

    @AfterEach
    void stop() {
        try {
            if (throughJedis != null) {
                throughJedis.close();
            }
        } finally {
            if (throughLettuce != null) {
                throughLettuce.close();
            }
        }
    }

    @Test
    void a_message_sent_through_one_instance_is_pushed_to_sockets_on_both_once() throws Exception {
        ApiClient jedisApi = ApiClient.onPort(throughJedis.port());
        ApiClient lettuceApi = ApiClient.onPort(throughLettuce.port());
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String carol = ApiClient.randomUser("carol");
        String aliceToken = jedisApi.signIn(alice);
        ApiClient.Response created = jedisApi.postJson("/api/chats", aliceToken, Map.of("members", List.of(bob, carol), "message", "hello"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String chat = created.json().get("chatId").stringValue();

        try (LiveClient bobOnJedis = LiveClient.socket(throughJedis.port(), jedisApi.signIn(bob));
             LiveClient carolOnLettuce = LiveClient.socket(throughLettuce.port(), lettuceApi.signIn(carol))) {
            // The opening message comes from pending, after each socket's subscriptions are in place.
            awaitMessage(bobOnJedis, 1);
            awaitMessage(carolOnLettuce, 1);

            send(lettuceApi, aliceToken, chat, "through lettuce");
            awaitMessage(bobOnJedis, 2);
            awaitMessage(carolOnLettuce, 2);

            send(jedisApi, aliceToken, chat, "through jedis");
            awaitMessage(bobOnJedis, 3);
            awaitMessage(carolOnLettuce, 3);

            List<String> everything = List.of("1 hello", "2 through lettuce", "3 through jedis");
            assertThat(bobOnJedis.messages(chat)).as("bob's socket on the Jedis instance").isEqualTo(everything);
            assertThat(carolOnLettuce.messages(chat)).as("carol's socket on the Lettuce instance").isEqualTo(everything);
        }
    }

    private static void send(ApiClient api, String token, String chat, String text) {
        ApiClient.Response sent = api.postJson("/api/chats/" + chat + "/messages", token, Map.of("message", text));
        assertThat(sent.status()).as(sent.toString()).isEqualTo(201);
    }

    private static void awaitMessage(LiveClient client, long id) throws InterruptedException {
        client.next(event -> event.get("type").stringValue().equals("message") && event.get("message").get("id").longValue() == id);
    }
}
