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
import org.junit.jupiter.params.provider.MethodSource;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances on one store, as behind a load balancer: a message sent through either reaches
 * the sockets of both, since each instance hears the chat's channel, not its own HTTP requests.
 * On Redis the two instances talk to it through different clients, each client once on either
 * side ({@link ClientPair#RING}), on a single node and on a cluster; on PostgreSQL both share one
 * schema and hear each other through LISTEN/NOTIFY.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("deployments")
class LiveOnTwoInstancesTest {

    /** Where the two instances keep their data, and on Redis through which clients. */
    record Deployment(String name, Supplier<AppConfig> config, UnaryOperator<AppConfig> theOther) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Deployment> deployments() {
        Stream<Deployment> redis = Stream.of(false, true).flatMap(cluster -> ClientPair.RING.stream()
                .map(pair -> new Deployment((cluster ? "cluster, " : "single node, ") + pair,
                        () -> onRedis(cluster, pair.one()), pair::theOther)));
        Deployment postgres = new Deployment("PostgreSQL", StoreUnderTest.POSTGRES::config,
                // The other instance finds the schema migrated already.
                config -> config.withPostgres(config.postgres().orElseThrow().withMigrate(false)));
        return Stream.concat(redis, Stream.of(postgres));
    }

    private static AppConfig onRedis(boolean cluster, RedisClientKind client) {
        RedisTarget redis = cluster ? RedisServers.cluster() : RedisServers.single();
        return TestConfigs.onRedis(redis, redis.newPrefix(), client);
    }

    @RegisterExtension
    final RunningServer one;
    @RegisterExtension
    final RunningServer other;

    LiveOnTwoInstancesTest(Deployment deployment) {
        one = RunningServer.on(deployment.config());
        other = one.alongside(deployment.theOther());
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
