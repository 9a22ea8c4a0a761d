package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.LiveClient;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.testsupport.redis.LocalRedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * When a server's pub/sub connection drops, events published meanwhile are lost to it, so its
 * sockets are told to {@code resync}; once it is back, pushes resume, each once, and pulling
 * pending fills whatever the gap took. One instance holds the socket, another on the same Redis
 * sends, as behind a load balancer. The Redis is a private, durable one that the test may kill
 * and bring back.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(RedisClientKind.class)
class LiveOnRedisResyncTest {

    /** The name every Pigeonhole process gives its Redis connections. */
    private static final String CLIENT_NAME = "pigeonhole";
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final RedisClientKind client;
    @RegisterExtension
    final RunningServer listening = RunningServer.on(this::onOwnRedis);
    @RegisterExtension
    final RunningServer sending = listening.alongside();
    private LocalRedisServer redis;
    private String aliceToken;
    private String bobToken;
    private String chat;

    LiveOnRedisResyncTest(RedisClientKind client) {
        this.client = client;
    }

    private AppConfig onOwnRedis() {
        redis = listening.closesAfterwards(LocalRedisServer.startDurable());
        return TestConfigs.onRedis(redis.target(), redis.target().newPrefix(), client);
    }

    @BeforeEach
    void openAChat() {
        String bob = ApiClient.randomUser("bob");
        aliceToken = sending.api().signIn(ApiClient.randomUser("alice"));
        bobToken = listening.api().signIn(bob);
        chat = sending.openChat(aliceToken, List.of(bob), "hello");
    }

    @Test
    void a_killed_subscription_connection_makes_sockets_resync_and_then_pushes_each_message_once() throws Exception {
        try (LiveClient bobs = LiveClient.socket(listening.port(), bobToken)) {
            awaitMessage(bobs, 1);

            assertThat(redis.target().killConnections(CLIENT_NAME, "pubsub")).as("subscription connections killed")
                    .isPositive();
            // Sent while the listening instance may still be resubscribing: pushed or not, pending has it.
            send("in the gap");
            bobs.next("resync");
            send("after the resync");
            send("and one more");

            awaitMessage(bobs, 4);
            assertNothingMissedAndNothingTwice(bobs, 4);
        }
    }

    @Test
    void a_redis_restart_makes_sockets_resync_and_then_pushes_each_message_once() throws Exception {
        try (LiveClient bobs = LiveClient.socket(listening.port(), bobToken)) {
            awaitMessage(bobs, 1);
            send("before the restart");
            awaitMessage(bobs, 2);

            redis.restart();
            bobs.next("resync");
            // The sending instance finds Redis again in its own time; the key makes retrying safe.
            sendRetrying("after the restart");
            send("and one more");

            awaitMessage(bobs, 4);
            assertNothingMissedAndNothingTwice(bobs, 4);
        }
    }

    /**
     * What bob's socket pushed has no repeats and is in order, and with what pulling pending
     * gives (as a client does on {@code resync}) it makes every id from 1 to {@code last}.
     */
    private void assertNothingMissedAndNothingTwice(LiveClient bobs, long last) {
        List<Long> pushed = ids(bobs.received().stream()
                .filter(received -> received.type().equals("message"))
                .map(received -> received.event().get("message")).toList());
        assertThat(pushed).as("pushed ids").doesNotHaveDuplicates().isSorted().contains(1L, 3L, 4L);

        AtomicReference<ApiClient.Response> pending = new AtomicReference<>();
        await().atMost(PATIENCE).until(() -> {
            pending.set(listening.api().get("/api/pending", bobToken));
            return pending.get().status() == 200;
        });
        List<JsonNode> chats = pending.get().json().get("chats").values().stream().toList();
        assertThat(chats).singleElement().satisfies(entry -> assertThat(entry.get("chatId").stringValue()).isEqualTo(chat));
        List<Long> pulled = ids(chats.getFirst().get("messages").values().stream().toList());
        assertThat(pulled).as("pending ids: nothing was acknowledged, so all").isEqualTo(everyId(last));
        List<Long> seen = new ArrayList<>(pushed);
        pulled.stream().filter(id -> !pushed.contains(id)).forEach(seen::add);
        assertThat(seen.stream().sorted().toList()).as("pushed and pulled together").isEqualTo(everyId(last));
    }

    private void send(String text) {
        sending.send(aliceToken, chat, text);
    }

    private void sendRetrying(String text) {
        Map<String, String> body = Map.of("message", text, "idempotencyKey", UUID.randomUUID().toString());
        AtomicReference<ApiClient.Response> last = new AtomicReference<>();
        await().atMost(PATIENCE).until(() -> {
            last.set(sending.api().postJson("/api/chats/" + chat + "/messages", aliceToken, body));
            return last.get().status() != 503;
        });
        assertThat(last.get().status()).as(last.get().toString()).isEqualTo(201);
    }

    private static void awaitMessage(LiveClient client, long id) throws InterruptedException {
        client.next(event -> event.get("type").stringValue().equals("message") && event.get("message").get("id").longValue() == id);
    }

    private static List<Long> ids(List<JsonNode> messages) {
        return messages.stream().map(message -> message.get("id").longValue()).toList();
    }

    private static List<Long> everyId(long last) {
        return LongStream.rangeClosed(1, last).boxed().toList();
    }
}
