package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.LiveClient;
import dev.pigeonhole.adapter.http.ServerMetrics;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /api/events} end to end, on memory and on Redis: the live protocol over Server-Sent
 * Events, from the same domain feed as the WebSocket. A stream resumed with its last event id
 * misses nothing and repeats nothing, and one that stops reading is cut off like a socket.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(value = StoreUnderTest.class, names = {"MEMORY", "REDIS_THROUGH_LETTUCE"})
class LiveOnEventStreamTest {

    @RegisterExtension
    final RunningServer server;

    LiveOnEventStreamTest(StoreUnderTest store) {
        this.server = RunningServer.on(() -> TestConfigs.unthrottled(store.config()));
    }

    @Test
    void pending_comes_first_then_live_events_and_chats_joined_while_connected_then_nothing_of_a_chat_left() throws Exception {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = server.api().signIn(alice);
        String bobToken = server.api().signIn(bob);
        String lunch = server.openChat(aliceToken, List.of(bob), "one");
        server.send(aliceToken, lunch, "two");

        try (LiveClient bobs = LiveClient.events(server.port(), bobToken)) {
            bobs.nextMessage(lunch, 2);
            server.send(aliceToken, lunch, "three");
            bobs.nextMessage(lunch, 3);
            assertThat(bobs.messages(lunch)).containsExactly("1 one", "2 two", "3 three");

            String later = server.openChat(aliceToken, List.of(), "before bob");
            assertThat(server.api().postJson("/api/chats/" + later + "/members", aliceToken, Map.of("user", bob)).status())
                    .isEqualTo(204);
            server.send(aliceToken, later, "after bob joined");
            bobs.nextMessage(later, 2);

            assertThat(server.api().delete("/api/chats/" + lunch + "/members/" + bob, bobToken).status()).isEqualTo(204);
            server.send(aliceToken, lunch, "bob is gone");
            server.send(aliceToken, later, "still here");
            bobs.nextMessage(later, 3);
            assertThat(bobs.messages(lunch)).as("nothing of the chat bob left").containsExactly("1 one", "2 two", "3 three");
            assertThat(bobs.messages(later)).containsExactly("2 after bob joined", "3 still here");
        }
    }

    @Test
    void a_stream_resumed_with_its_last_event_id_misses_nothing_and_repeats_nothing() throws Exception {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = server.api().signIn(alice);
        String bobToken = server.api().signIn(bob);
        String lunch = server.openChat(aliceToken, List.of(bob), "1");
        String team = server.openChat(aliceToken, List.of(bob), "1");

        String resumeAfter;
        try (LiveClient first = LiveClient.events(server.port(), bobToken)) {
            first.awaitMessage(lunch, 1);
            first.awaitMessage(team, 1);
            server.send(aliceToken, lunch, "2");
            first.awaitMessage(lunch, 2);
            resumeAfter = first.lastEventId();
        }
        // Bob acknowledged nothing, so a fresh stream would send all of this again.
        server.send(aliceToken, team, "2");
        server.send(aliceToken, lunch, "3");

        try (LiveClient again = LiveClient.events(server.port(), bobToken, resumeAfter)) {
            again.awaitMessage(lunch, 3);
            again.awaitMessage(team, 2);
            server.send(aliceToken, lunch, "4");
            again.awaitMessage(lunch, 4);
            assertThat(again.messages(lunch)).containsExactly("3 3", "4 4");
            assertThat(again.messages(team)).containsExactly("2 2");
        }
    }

    @Test
    void the_id_stays_bounded_for_a_user_in_many_chats_and_a_resume_still_skips_nothing() throws Exception {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = server.api().signIn(alice);
        String bobToken = server.api().signIn(bob);
        List<String> chats = new ArrayList<>();
        for (int i = 0; i < LiveFeed.Received.MAX_CHATS + 4; i++) {
            chats.add(server.openChat(aliceToken, List.of(bob), "1"));
        }

        String resumeAfter;
        try (LiveClient first = LiveClient.events(server.port(), bobToken)) {
            for (String chat : chats) {
                first.awaitMessage(chat, 1);
            }
            resumeAfter = first.lastEventId();
        }
        assertThat(resumeAfter.split(",")).hasSize(LiveFeed.Received.MAX_CHATS);
        for (String chat : chats) {
            server.send(aliceToken, chat, "2");
        }

        try (LiveClient again = LiveClient.events(server.port(), bobToken, resumeAfter)) {
            for (String chat : chats) {
                again.awaitMessage(chat, 2);
            }
            for (String chat : chats) {
                // Past the bound a chat may come again from its cursor (a repeat), never with a hole.
                List<String> got = again.messages(chat);
                assertThat(got).as(chat).endsWith("2 2").isSubsetOf("1 1", "2 2");
                assertThat(resumeAfter.contains(chat + ":1") ? got : List.of("2 2")).as(chat).containsExactly("2 2");
            }
        }
    }

    @Test
    void a_stream_that_stops_reading_is_cut_off_as_slow_while_a_reader_gets_every_message_once() throws Exception {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String carol = ApiClient.randomUser("carol");
        String aliceToken = server.api().signIn(alice);
        String chat = server.openChat(aliceToken, List.of(bob, carol), "opening");
        String body = "x".repeat(4_000);

        try (LiveClient carols = LiveClient.events(server.port(), server.api().signIn(carol));
             StalledStream bobs = StalledStream.open(server.port(), server.api().signIn(bob))) {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> ServerMetrics.read(server.api(), "pigeonhole_live_event_streams") == 2.0);
            int sent = 1;
            while (ServerMetrics.cutOffAsSlow(server.api()) < 1.0) {
                assertThat(sent).as("messages sent without bob being cut off").isLessThan(8_000);
                server.send(aliceToken, chat, body);
                sent++;
            }
            int total = sent;
            await().atMost(Duration.ofSeconds(30)).until(() -> carols.messageCount() >= total);
            assertThat(carols.messages(chat)).extracting(text -> Long.parseLong(text.substring(0, text.indexOf(' '))))
                    .as("carol's messages, each once, in order").isEqualTo(LongStream.rangeClosed(1, total).boxed().toList());
            assertThat(carols.closed()).isNotDone();

            // Bob never reads, so never takes his last event either: the server drops him.
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> ServerMetrics.read(server.api(), "pigeonhole_live_event_streams") == 1.0);
            assertThat(ServerMetrics.cutOffAsSlow(server.api())).as("only bob was cut off").isEqualTo(1.0);
        }
    }

    /** An event stream on a bare socket that reads the answer's first bytes and then nothing more. */
    private record StalledStream(Socket socket) implements AutoCloseable {

        static StalledStream open(int port, String token) throws IOException {
            Socket socket = new Socket();
            socket.setReceiveBufferSize(4096);
            socket.setSoTimeout(15_000);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 15_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/events?token=" + token + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] head = new byte[12];
            int read = in.readNBytes(head, 0, head.length);
            String status = new String(head, 0, read, StandardCharsets.US_ASCII);
            if (!status.startsWith("HTTP/1.1 200")) {
                socket.close();
                throw new IOException("the event stream was refused: " + status);
            }
            return new StalledStream(socket);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
