package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.limits.Limits;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class LiveSocketTest {

    @Test
    void a_connection_without_a_valid_token_is_refused_before_the_upgrade() {
        try (TestApi api = TestApi.start()) {
            URI noToken = URI.create("ws://127.0.0.1:" + api.server.port() + "/api/live");
            URI badToken = URI.create("ws://127.0.0.1:" + api.server.port() + "/api/live?token=forged");

            for (URI uri : List.of(noToken, badToken)) {
                assertThatThrownBy(() -> HttpClient.newHttpClient().newWebSocketBuilder()
                        .buildAsync(uri, new WebSocket.Listener() { }).join())
                        .isInstanceOf(CompletionException.class)
                        .cause().isInstanceOfSatisfying(WebSocketHandshakeException.class,
                                refused -> assertThat(refused.getResponse().statusCode()).isEqualTo(401));
            }
        }
    }

    @Test
    void a_client_that_sends_more_than_a_few_bytes_is_closed_with_1009() throws Exception {
        try (TestApi api = TestApi.start()) {
            String bob = api.client.signIn("bob");
            CompletableFuture<Integer> closedWith = new CompletableFuture<>();
            WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + api.server.port() + "/api/live?token=" + bob),
                            new WebSocket.Listener() {
                                @Override
                                public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
                                    closedWith.complete(code);
                                    return null;
                                }
                            })
                    .join();
            socket.sendText("x".repeat(ChatHttpServer.MAX_INCOMING_MESSAGE_BYTES + 1), true);

            assertThat(closedWith.get(15, TimeUnit.SECONDS)).isEqualTo(1009);
            socket.abort();
        }
    }

    @Test
    void an_upgrade_opens_no_http_session() throws Exception {
        try (TestApi api = TestApi.start()) {
            String bob = api.client.signIn("bob");
            // The JDK's WebSocket client does not show the upgrade's headers: a bare handshake does.
            try (Socket raw = new Socket("127.0.0.1", api.server.port())) {
                raw.setSoTimeout(15_000);
                raw.getOutputStream().write(("GET /api/live?token=" + bob + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                BufferedReader answer = new BufferedReader(new InputStreamReader(raw.getInputStream(), StandardCharsets.US_ASCII));
                List<String> head = new ArrayList<>();
                for (String line = answer.readLine(); line != null && !line.isEmpty(); line = answer.readLine()) {
                    head.add(line);
                }

                assertThat(head.getFirst()).startsWith("HTTP/1.1 101");
                assertThat(head).noneMatch(line -> line.toLowerCase(Locale.ROOT).startsWith("set-cookie"));
            }
        }
    }

    @Test
    void pending_messages_come_first_oldest_first_then_live_ones_each_once() throws Exception {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            String bob = api.client.signIn("bob");
            api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"one\",\"chatId\":\"c\"}");
            api.client.post("/api/chats/c/messages", alice, "{\"message\":\"two\"}");

            try (LiveClient live = LiveClient.socket(api.server.port(), bob)) {
                assertThat(texts(live, 2)).containsExactly("1 one", "2 two");
                api.client.post("/api/chats/c/messages", alice, "{\"message\":\"three\"}");
                assertThat(texts(live, 1)).containsExactly("3 three");

                api.client.post("/api/chats/c/messages", alice, "{\"message\":\"four\"}");
                assertThat(texts(live, 1)).as("nothing repeated before it").containsExactly("4 four");
            }
        }
    }

    @Test
    void a_chat_opened_or_joined_while_connected_is_followed_at_once() throws Exception {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            String bob = api.client.signIn("bob");
            String carol = api.client.signIn("carol");
            try (LiveClient bobs = LiveClient.socket(api.server.port(), bob); LiveClient carols = LiveClient.socket(api.server.port(), carol)) {
                api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"welcome\",\"chatId\":\"new\"}");
                assertThat(texts(bobs, 1)).as("the opening message, sent before bob's socket followed")
                        .containsExactly("1 welcome");

                assertThat(api.client.post("/api/chats/new/members", alice, "{\"user\":\"carol\"}").status())
                        .isEqualTo(204);
                api.client.post("/api/chats/new/messages", alice, "{\"message\":\"hi carol\"}");
                assertThat(texts(carols, 1)).containsExactly("2 hi carol");
                assertThat(carols.received()).as("carol hears she was added before the chat's first message to her")
                        .extracting(received -> received.type() + " " + (received.event().has("chatId") ? received.event().get("chatId").stringValue() : ""))
                        .containsSubsequence("membership new", "message new");

                assertThat(api.client.delete("/api/chats/new/members/carol", carol).status()).isEqualTo(204);
                api.client.post("/api/chats/new/messages", alice, "{\"message\":\"after carol left\"}");
                assertThat(texts(bobs, 2)).containsExactly("2 hi carol", "3 after carol left");
                assertThat(carols.messages("new")).as("nothing of the chat carol left").containsExactly("2 hi carol");
            }
        }
    }

    @Test
    void co_members_coming_online_are_announced_as_a_diff_and_strangers_are_not() throws Exception {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            api.client.post("/api/chats", alice, "{\"members\":[\"dave\"],\"message\":\"hi\",\"chatId\":\"c\"}");
            try (LiveClient live = LiveClient.socket(api.server.port(), alice)) {
                // The client's handshake can finish before the server has subscribed the socket.
                await().atMost(Duration.ofSeconds(10)).until(() -> ServerMetrics.read(api.client, "pigeonhole_live_sessions") == 1.0);
                api.client.get("/api/chats", api.client.signIn("eve"));
                api.client.get("/api/chats", api.client.signIn("dave"));

                JsonNode presence = live.next("presence").event();
                assertThat(presence.get("online").values()).extracting(JsonNode::stringValue).containsExactly("dave");
                assertThat(presence.get("offline").values()).isEmpty();
            }
        }
    }

    @Test
    void a_direct_message_is_pushed_to_its_owners_socket_alone_and_stays_in_the_mailbox() throws Exception {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            String bob = api.client.signIn("bob");
            try (LiveClient bobs = LiveClient.socket(api.server.port(), bob);
                 LiveClient carols = LiveClient.socket(api.server.port(), api.client.signIn("carol"))) {
                // The client's handshake can finish before the server has subscribed the socket.
                await().atMost(Duration.ofSeconds(10)).until(() -> ServerMetrics.read(api.client, "pigeonhole_live_sessions") == 2.0);
                assertThat(api.client.post("/api/users/bob/mailbox", alice, "{\"message\":\"psst\"}").status()).isEqualTo(201);

                JsonNode event = bobs.next("mailbox").event();
                assertThat(event.get("message").get("id").longValue()).isEqualTo(1);
                assertThat(event.get("message").get("sender").stringValue()).isEqualTo("alice");
                assertThat(event.get("message").get("message").stringValue()).isEqualTo("psst");
                assertThat(api.client.get("/api/mailbox", bob).json().get("messages").values())
                        .as("pushed, not acknowledged").hasSize(1);

                // Published after bob's: once carol has her own, she would have had his.
                api.client.post("/api/users/carol/mailbox", alice, "{\"message\":\"for carol\"}");
                carols.next("mailbox");
                assertThat(carols.received()).extracting(LiveClient.Received::type).containsOnlyOnce("mailbox");
            }
        }
    }

    @Test
    void a_quiet_connection_is_pinged_and_outlives_the_idle_timeout() throws Exception {
        Duration idleTimeout = Duration.ofMillis(900);
        try (TestApi api = TestApi.start(Limits.DEFAULTS, HttpSettings.defaults(true).withLiveIdleTimeout(idleTimeout))) {
            String alice = api.client.signIn("alice");
            api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"one\",\"chatId\":\"c\"}");
            try (LiveClient live = LiveClient.socket(api.server.port(), api.client.signIn("bob"))) {
                assertThat(texts(live, 1)).containsExactly("1 one");

                // Nothing to push, and the client sends nothing: only pings (and pongs) cross.
                long quietSince = System.nanoTime();
                await().atMost(Duration.ofSeconds(10)).until(() -> live.keepAlives() >= 4);
                assertThat(Duration.ofNanos(System.nanoTime() - quietSince)).isGreaterThan(idleTimeout);
                assertThat(live.closed()).as("closed by the idle timeout").isNotDone();

                api.client.post("/api/chats/c/messages", alice, "{\"message\":\"two\"}");
                assertThat(texts(live, 1)).containsExactly("2 two");
            }
        }
    }

    @Test
    void the_server_counts_open_connections_and_its_upstream_subscriptions() throws Exception {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            api.client.post("/api/chats", alice, "{\"members\":[],\"message\":\"x\",\"chatId\":\"solo\"}");
            try (LiveClient first = LiveClient.socket(api.server.port(), alice); LiveClient second = LiveClient.socket(api.server.port(), alice)) {
                await().atMost(Duration.ofSeconds(10)).until(() -> ServerMetrics.read(api.client, "pigeonhole_live_sessions") == 2.0);
                // The chat, presence and alice's own channel, shared by both connections.
                assertThat(ServerMetrics.read(api.client, "pigeonhole_upstream_subscriptions")).isEqualTo(3.0);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> ServerMetrics.read(api.client, "pigeonhole_live_sessions") == 0.0
                    && ServerMetrics.read(api.client, "pigeonhole_upstream_subscriptions") == 0.0);
        }
    }

    private static List<String> texts(LiveClient live, int count) throws InterruptedException {
        List<String> texts = new ArrayList<>();
        while (texts.size() < count) {
            JsonNode event = live.next("message").event();
            texts.add(event.get("message").get("id").longValue() + " " + event.get("message").get("message").stringValue());
        }
        return texts;
    }

}
