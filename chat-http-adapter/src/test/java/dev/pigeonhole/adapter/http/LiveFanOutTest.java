package dev.pigeonhole.adapter.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A message to a chat reaches every open connection of its members as the same text, written
 * once for all of them, while what is each connection's own (an event stream's id) stays its own.
 */
class LiveFanOutTest {

    @Test
    void every_socket_and_stream_in_a_chat_receives_the_same_correct_frame_and_each_stream_its_own_id()
            throws Exception {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            String bob = api.client.signIn("bob");
            String carol = api.client.signIn("carol");
            String dave = api.client.signIn("dave");
            api.client.post("/api/chats", alice, "{\"members\":[\"bob\",\"carol\",\"dave\"],\"message\":\"hi\",\"chatId\":\"c\"}");
            api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"aside\",\"chatId\":\"other\"}");

            int port = api.server.port();
            try (LiveClient bobs = LiveClient.socket(port, bob);
                 LiveClient carols = LiveClient.socket(port, carol);
                 LiveClient daves = LiveClient.socket(port, dave);
                 LiveClient bobsStream = LiveClient.events(port, bob);
                 LiveClient carolsStream = LiveClient.events(port, carol)) {
                List<LiveClient> all = List.of(bobs, carols, daves, bobsStream, carolsStream);
                // Each has had its catch-up, so it follows the chat and the next message comes live.
                for (LiveClient client : all) {
                    client.nextMessage("c", 1);
                }
                bobsStream.awaitMessage("other", 1);
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> ServerMetrics.read(api.client, "pigeonhole_live_sessions") == all.size());

                assertThat(api.client.post("/api/chats/c/messages", alice, "{\"message\":\"to all of you\"}").status())
                        .isEqualTo(201);

                List<LiveClient.Received> got = all.stream().map(client -> {
                    try {
                        return client.nextMessage("c", 2);
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }).toList();
                String text = got.getFirst().text();
                assertThat(got).extracting(LiveClient.Received::text).as("byte for byte the same").containsOnly(text);
                assertThat(text).startsWith("{\"type\":\"message\",\"chatId\":\"c\",\"message\":{\"id\":2,\"ts\":\"")
                        .endsWith("\"sender\":\"alice\",\"message\":\"to all of you\"}}");

                assertThat(got.get(3).id()).as("bob's stream has had both chats").contains("other:1,c:2");
                assertThat(got.get(4).id()).as("carol's stream, only hers").contains("c:2");
                assertThat(got.subList(0, 3)).allSatisfy(socket -> assertThat(socket.id()).isEmpty());
            }
        }
    }
}
