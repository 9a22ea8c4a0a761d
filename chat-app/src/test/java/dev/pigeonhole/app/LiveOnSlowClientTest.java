package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.LiveClient;
import dev.pigeonhole.adapter.http.ServerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A client that stops reading must not hold up the others or grow the server's memory: once
 * more than its bound of unsent bytes wait for it ({@code HttpSettings.maxUnsentBytes}), the
 * server cuts it off as slow, while the rest of the chat goes on receiving everything, once.
 */
class LiveOnSlowClientTest {

    /** Near the largest body the default limits allow, so the kernel's buffers fill in few messages. */
    private static final String BODY = "x".repeat(4_000);
    /** Far more than the kernel's buffers plus 1000 frames of this size; the test stops sending at the cut-off. */
    private static final int MOST_MESSAGES = 8_000;
    private static final int BATCH = 50;
    private static final int SENDERS = 4;

    @RegisterExtension
    final RunningServer server = RunningServer.on(() -> TestConfigs.unthrottled(AppConfig.defaults()));

    @Test
    void clients_that_stop_reading_are_cut_off_as_slow_while_the_others_get_every_message_once() throws Exception {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String erin = ApiClient.randomUser("erin");
        String carol = ApiClient.randomUser("carol");
        String dave = ApiClient.randomUser("dave");
        String aliceToken = server.api().signIn(alice);
        String chat = server.openChat(aliceToken, List.of(bob, erin, carol, dave), "opening");

        try (LiveClient carols = LiveClient.socket(server.port(), server.api().signIn(carol));
             LiveClient daves = LiveClient.socket(server.port(), server.api().signIn(dave));
             StalledSocket bobs = StalledSocket.open(server.port(), server.api().signIn(bob));
             StalledSocket erins = StalledSocket.open(server.port(), server.api().signIn(erin))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> ServerMetrics.liveSessions(server.api()) == 4.0);
            assertThat(ServerMetrics.cutOffAsSlow(server.api())).isZero();

            int sent = 1;
            long started = System.nanoTime();
            while (ServerMetrics.cutOffAsSlow(server.api()) < 2.0) {
                assertThat(sent).as("messages sent without bob and erin being cut off").isLessThan(MOST_MESSAGES);
                sendConcurrently(aliceToken, chat, BATCH);
                sent += BATCH;
            }
            System.out.printf("slow clients: both cut off after %d messages of %d chars, %d ms%n", sent, BODY.length(),
                    Duration.ofNanos(System.nanoTime() - started).toMillis());

            // Erin starts reading again at once: what was queued for her, then the close.
            StalledSocket.Ending erinsEnding = erins.readUntilClose();
            System.out.println("slow client reading again at once: " + erinsEnding);
            assertThat(erinsEnding.code()).as("erin's close code").contains(1013);
            assertThat(erinsEnding.reason()).isEqualTo("slow");
            assertThat(erinsEnding.textFrames()).as("erin got what was queued before the cut-off, not everything")
                    .isLessThan(sent);
            erins.close();

            // The chat goes on for the others after bob and erin are gone.
            for (int i = 0; i < 10; i++) {
                server.send(aliceToken, chat, BODY);
                sent++;
            }
            int total = sent;
            await().atMost(Duration.ofSeconds(20)).until(() -> carols.messageCount() >= total && daves.messageCount() >= total);
            List<Long> everyId = LongStream.rangeClosed(1, total).boxed().toList();
            assertThat(ids(carols, chat)).as("carol's messages, each once, in order").isEqualTo(everyId);
            assertThat(ids(daves, chat)).as("dave's messages, each once, in order").isEqualTo(everyId);
            assertThat(carols.closed()).isNotDone();
            assertThat(daves.closed()).isNotDone();
            assertThat(ServerMetrics.cutOffAsSlow(server.api())).as("only bob and erin were cut off").isEqualTo(2.0);

            // Bob never reads, so never takes his close frame either: the server drops him.
            await().atMost(Duration.ofSeconds(15)).until(() -> ServerMetrics.liveSessions(server.api()) == 2.0);
            StalledSocket.Ending bobsEnding = bobs.readUntilClose();
            System.out.println("slow client that never read, reading after it was dropped: " + bobsEnding);
            assertThat(bobsEnding.code()).as("dropped, so no close frame reached bob").isEmpty();
        }
    }

    /** {@code count} messages from {@link #SENDERS} threads at once: the server orders them, and the test is quicker. */
    private void sendConcurrently(String token, String chat, int count) throws InterruptedException {
        try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> sends = new ArrayList<>();
            for (int thread = 0; thread < SENDERS; thread++) {
                int share = count / SENDERS + (thread < count % SENDERS ? 1 : 0);
                sends.add(senders.submit(() -> {
                    for (int i = 0; i < share; i++) {
                        server.send(token, chat, BODY);
                    }
                }));
            }
            for (Future<?> send : sends) {
                try {
                    send.get();
                } catch (ExecutionException e) {
                    throw new AssertionError("a send failed", e.getCause());
                }
            }
        }
    }

    private static List<Long> ids(LiveClient client, String chat) {
        return client.received().stream()
                .filter(received -> received.type().equals("message"))
                .map(LiveClient.Received::event)
                .filter(event -> event.get("chatId").stringValue().equals(chat))
                .map(event -> event.get("message").get("id").longValue())
                .toList();
    }
}
