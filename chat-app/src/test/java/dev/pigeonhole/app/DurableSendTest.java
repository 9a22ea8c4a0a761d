package dev.pigeonhole.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.redis.Durability;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.testsupport.redis.LocalRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --redis-durability replicas=1,timeout=300} through HTTP, on a Redis primary with a replica
 * of its own: a send is answered 201 while the replica follows; once it stops following, a keyed
 * send is stored on the primary but answered 503 not-durable with the message's id, and so is its
 * retry, until the replica follows again and the same retry is answered 201 with that very
 * message. A server without the option answers 201 all along. On every client. And the start's
 * log says which durability holds, warning of a primary with fewer replicas than writes wait for.
 */
class DurableSendTest {

    private static final Durability ONE_REPLICA = new DurabilityOption().convert("replicas=1,timeout=300");
    private static final Logger CHECK = (Logger) LoggerFactory.getLogger(DurabilityCheck.class);

    private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
    private Level checkLevel;

    @RegisterExtension
    final RunningServer durable = RunningServer.startedByTheTest();

    @RegisterExtension
    final RunningServer plain = durable.alongside();

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_send_no_replica_confirmed_is_refused_as_not_durable_and_its_retry_answers_the_same_message(
            RedisClientKind client) {
        LocalRedisServer primary = durable.closesAfterwards(LocalRedisServer.start());
        LocalRedisServer replica = durable.closesAfterwards(LocalRedisServer.startReplicaOf(primary));
        String prefix = primary.target().newPrefix();
        AppConfig store = TestConfigs.onRedis(primary.target(), prefix, client);
        durable.start(store.withRedis(store.redis().withDurability(ONE_REPLICA)));
        String alice = durable.api().signIn(ApiClient.randomUser("alice"));
        String chat = durable.openChat(alice, List.of(ApiClient.randomUser("bob")), "hello");
        String messages = "/api/chats/" + chat + "/messages";

        long held = durable.send(alice, chat, "a replica holds this").get("id").longValue();

        detach(replica);
        Map<String, String> keyed = Map.of("message", "only the primary holds this",
                "idempotencyKey", UUID.randomUUID().toString());
        ApiClient.Response refused = durable.api().postJson(messages, alice, keyed);

        assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
        assertThat(refused.json().get("type").stringValue()).isEqualTo("/problems/not-durable");
        assertThat(refused.header("Retry-After")).as("Retry-After").isPresent();
        long id = refused.json().get("messageId").longValue();
        assertThat(id).as("the next message's id").isEqualTo(held + 1);
        assertThat(texts(durable.api().get(messages, alice)))
                .as("the message is on the primary").containsEntry(id, "only the primary holds this");

        ApiClient.Response again = durable.api().postJson(messages, alice, keyed);
        assertThat(again.status()).as(again.toString()).isEqualTo(503);
        assertThat(again.json().get("messageId").longValue()).as("the retry names the same message").isEqualTo(id);

        plain.start(store);
        assertThat(plain.send(alice, chat, "no replica asked for").get("id").longValue())
                .as("a server that waits for no replica keeps answering 201").isEqualTo(id + 1);

        reattach(replica, primary);
        ApiClient.Response kept = durable.api().postJson(messages, alice, keyed);
        assertThat(kept.status()).as(kept.toString()).isEqualTo(201);
        assertThat(kept.json().get("id").longValue()).as("the same message, not a second one").isEqualTo(id);
        assertThat(texts(durable.api().get(messages, alice))).hasSize(4).containsEntry(id, "only the primary holds this");
    }

    @Test
    void a_start_says_which_durability_holds_and_warns_of_a_primary_short_of_replicas() throws Exception {
        List<ILoggingEvent> logged = capture();
        try (LocalRedisServer primary = LocalRedisServer.start()) {
            AppConfig store = TestConfigs.onRedis(primary.target(), primary.target().newPrefix(), RedisClientKind.LETTUCE);

            try (Pigeonhole waiting = Pigeonhole.start(store.withRedis(store.redis().withDurability(ONE_REPLICA)),
                    InstantSource.system())) {
                assertThat(waiting.storeAnswers()).isTrue();
            }
            List<ILoggingEvent> whenWaiting = List.copyOf(logged);
            logged.clear();
            try (Pigeonhole asBefore = Pigeonhole.start(store, InstantSource.system())) {
                assertThat(asBefore.storeAnswers()).isTrue();
            }

            assertThat(whenWaiting).filteredOn(event -> event.getLevel() == Level.INFO).singleElement()
                    .extracting(ILoggingEvent::getFormattedMessage).asString()
                    .isEqualTo("Redis durability: replicas=1,timeout=300; a write is answered once WAIT confirms it on "
                            + "1 replica, else 503 not-durable after 300 ms");
            assertThat(whenWaiting).filteredOn(event -> event.getLevel() == Level.WARN).singleElement()
                    .extracting(ILoggingEvent::getFormattedMessage).asString()
                    .contains(":" + primary.port() + " has 0 replicas connected, and writes wait for 1")
                    .contains("503 not-durable");
            assertThat(logged).singleElement().extracting(ILoggingEvent::getFormattedMessage).asString()
                    .startsWith("Redis durability: none;");
        } finally {
            release();
        }
    }

    /** Makes the replica follow a port nobody listens on: it keeps what it holds and acknowledges nothing. */
    private static void detach(LocalRedisServer replica) {
        assertThat(replica.target().admin("REPLICAOF", "127.0.0.1", Integer.toString(CommandRun.closedPort())))
                .isEqualTo("OK");
    }

    /** Makes the replica follow the primary again, and waits until the primary counts it. */
    private static void reattach(LocalRedisServer replica, LocalRedisServer primary) {
        assertThat(replica.target().admin("REPLICAOF", "127.0.0.1", Integer.toString(primary.port()))).isEqualTo("OK");
        replica.awaitFollowing(primary);
    }

    /** What {@link DurabilityCheck} logs from now on, at INFO and above, whatever the test logging's level. */
    private List<ILoggingEvent> capture() {
        checkLevel = CHECK.getLevel();
        CHECK.setLevel(Level.INFO);
        captured.start();
        CHECK.addAppender(captured);
        return captured.list;
    }

    private void release() {
        CHECK.detachAppender(captured);
        captured.stop();
        CHECK.setLevel(checkLevel);
    }

    private static Map<Long, String> texts(ApiClient.Response page) {
        assertThat(page.status()).as(page.toString()).isEqualTo(200);
        return StreamSupport.stream(page.json().get("messages").spliterator(), false)
                .collect(Collectors.toMap(message -> message.get("id").longValue(),
                        message -> message.get("message").stringValue()));
    }
}
