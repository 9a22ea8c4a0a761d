package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.LiveClient;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances on one store, as behind a load balancer: a message sent through either reaches
 * the sockets of both, since each instance hears the chat's channel, not its own HTTP requests.
 * On Redis one instance talks to it through Jedis, the other through Lettuce; on PostgreSQL both
 * share one schema and hear each other through LISTEN/NOTIFY.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(LiveOnTwoInstancesTest.Topology.class)
class LiveOnTwoInstancesTest {

    enum Topology {
        SINGLE_NODE, CLUSTER, POSTGRES
    }

    private final Topology topology;
    @RegisterExtension
    final RunningServer one = RunningServer.on(this::config);
    @RegisterExtension
    final RunningServer other = one.alongside(LiveOnTwoInstancesTest::theOtherInstance);

    LiveOnTwoInstancesTest(Topology topology) {
        this.topology = topology;
    }

    private AppConfig config() {
        if (topology == Topology.POSTGRES) {
            return StoreUnderTest.POSTGRES.config();
        }
        RedisTarget redis = topology == Topology.CLUSTER ? RedisServers.cluster() : RedisServers.single();
        return StoreUnderTest.REDIS_THROUGH_JEDIS.on(redis, redis.newPrefix());
    }

    /** On Redis, the other instance goes through Lettuce; on PostgreSQL, it finds the schema migrated already. */
    private static AppConfig theOtherInstance(AppConfig config) {
        return config.postgres()
                .map(settings -> config.withPostgres(settings.withMigrate(false)))
                .orElseGet(() -> config.withRedis(config.redis().withClient(RedisClientKind.LETTUCE)));
    }

    @Test
    void a_message_sent_through_one_instance_is_pushed_to_sockets_on_both_once() throws Exception {
        ApiClient oneApi = one.api();
        ApiClient otherApi = other.api();
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String carol = ApiClient.randomUser("carol");
        String aliceToken = oneApi.signIn(alice);
        ApiClient.Response created = oneApi.postJson("/api/chats", aliceToken, Map.of("members", List.of(bob, carol), "message", "hello"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String chat = created.json().get("chatId").stringValue();

        try (LiveClient bobOnOne = LiveClient.socket(one.port(), oneApi.signIn(bob));
             LiveClient carolOnOther = LiveClient.socket(other.port(), otherApi.signIn(carol))) {
            // The opening message comes from pending, after each socket's subscriptions are in place.
            awaitMessage(bobOnOne, 1);
            awaitMessage(carolOnOther, 1);

            other.send(aliceToken, chat, "through the other");
            awaitMessage(bobOnOne, 2);
            awaitMessage(carolOnOther, 2);

            one.send(aliceToken, chat, "through the one");
            awaitMessage(bobOnOne, 3);
            awaitMessage(carolOnOther, 3);

            List<String> everything = List.of("1 hello", "2 through the other", "3 through the one");
            assertThat(bobOnOne.messages(chat)).as("bob's socket on the one instance").isEqualTo(everything);
            assertThat(carolOnOther.messages(chat)).as("carol's socket on the other instance").isEqualTo(everything);
        }
    }

    private static void awaitMessage(LiveClient client, long id) throws InterruptedException {
        client.next(event -> event.get("type").stringValue().equals("message") && event.get("message").get("id").longValue() == id);
    }
}
