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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The attack, or the accident: Redis goes away, and every client of a server reconnects at the
 * same moment. Each new socket would read the store (its chats, its catch-up) and find it gone;
 * before, each such socket was closed with 1011, the clients reconnected again, and so on. Now
 * the catch-ups wait their turn, none ends a socket, and each client is told to {@code resync};
 * once Redis is back the sockets follow their chats again and push what is sent.
 */
@ParameterizedClass(name = "{0}")
// The storm is the server's to weather (the catch-ups' queue, the multiplexer's resubscription),
// the same on every client; what each client adds, reporting the outage and resubscribing once
// Redis is back, the outage and resync tests prove on all four. Redisson and GLIDE took 15 to 22 s
// here for the same answer, waiting on their own reconnect schedules.
@EnumSource(value = RedisClientKind.class, names = {"JEDIS", "LETTUCE"})
class ReconnectStormAbuseTest {

    private static final int CLIENTS = 100;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final RedisClientKind client;
    @RegisterExtension
    final RunningServer server = RunningServer.on(this::onOwnRedis);
    private LocalRedisServer redis;

    ReconnectStormAbuseTest(RedisClientKind client) {
        this.client = client;
    }

    private AppConfig onOwnRedis() {
        redis = server.closesAfterwards(LocalRedisServer.startDurable());
        // The default timeouts: an outage must be found out as fast as it is in production.
        return AppConfig.defaults().withRedis(RedisConfig.defaults().withClient(client)
                .withEndpoint(TestConfigs.endpoint(redis.target())).withKeyPrefix(redis.target().newPrefix()));
    }

    @Test
    void a_store_outage_during_a_hundred_simultaneous_reconnects_closes_no_socket_and_each_resyncs() throws Exception {
        ApiClient api = server.api();
        List<String> users = new ArrayList<>();
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            users.add(ApiClient.randomUser("member"));
            tokens.add(api.signIn(users.getLast()));
        }
        // Opened by someone else, so that the message is pending for every one of them.
        String opener = api.signIn(ApiClient.randomUser("opener"));
        ApiClient.Response created = api.postJson("/api/chats", opener,
                Map.of("members", users, "message", "before the outage"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String chat = created.json().get("chatId").stringValue();
        // No other client stays connected: once the hundred go, the server holds no upstream
        // subscription, and each new socket needs ones that cannot be made while Redis is away.

        List<LiveClient> before = openAll(tokens);
        before.forEach(socket -> socket.awaitMessage(chat, 1));

        redis.stop();
        before.forEach(LiveClient::close);
        List<LiveClient> during = openAll(tokens);
        try {
            await("a resync or the catch-up on every socket").atMost(PATIENCE).pollInterval(Duration.ofMillis(50))
                    .until(() -> during.stream().allMatch(ReconnectStormAbuseTest::resyncedOrCaughtUp));
            assertThat(during.stream().filter(socket -> socket.closed().isDone()).count())
                    .as("sockets closed while the store was away").isZero();

            List<Integer> heardBeforeRestart = during.stream().map(socket -> socket.received().size()).toList();
            redis.restart();
            // The server's subscriptions come back and each socket is told so, having followed its chats again.
            await("a resync on every socket once Redis is back").atMost(PATIENCE).pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        for (int i = 0; i < CLIENTS; i++) {
                            List<LiveClient.Received> since = during.get(i).received();
                            if (since.subList(heardBeforeRestart.get(i), since.size()).stream()
                                    .noneMatch(received -> received.type().equals("resync"))) {
                                return false;
                            }
                        }
                        return true;
                    });
            sendRetrying(api, opener, chat, "after the outage");

            List<String> ended = during.stream().filter(socket -> socket.closed().isDone())
                    .map(socket -> socket.closed().join().toString()).toList();
            assertThat(ended).as("sockets closed, with 1011 or anything else").isEmpty();
        } finally {
            during.forEach(LiveClient::close);
        }
    }

    private static boolean resyncedOrCaughtUp(LiveClient socket) {
        return socket.received().stream().anyMatch(received -> received.type().equals("resync")
                || received.type().equals("message"));
    }

    /** Every client at once, as after a failover: the handshakes all start before any is answered. */
    private List<LiveClient> openAll(List<String> tokens) {
        List<CompletableFuture<LiveClient>> opening = tokens.stream()
                .map(token -> LiveClient.openSocket(server.port(), token)).toList();
        return opening.stream().map(open -> open.orTimeout(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).join()).toList();
    }

    private static void sendRetrying(ApiClient api, String token, String chat, String text) {
        Map<String, String> body = Map.of("message", text, "idempotencyKey", UUID.randomUUID().toString());
        AtomicReference<ApiClient.Response> last = new AtomicReference<>();
        await().atMost(PATIENCE).until(() -> {
            last.set(api.postJson("/api/chats/" + chat + "/messages", token, body));
            return last.get().status() != 503;
        });
        assertThat(last.get().status()).as(last.get().toString()).isEqualTo(201);
    }
}
