package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.LiveClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How long a message takes from just before the sender's HTTP call to its arrival on every socket
 * in the chat: a hundred sockets in one chat, one sender. This is a measurement, not
 * a limit: the numbers go to standard out, and the test asserts only that every socket got every
 * message once, in order. Sockets and sender share this JVM (and, here, two cores) with the
 * server, so the numbers are an upper bound of what the server adds.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreUnderTest.class)
class LiveOnLatencyTest {


    private static final int SOCKETS = 100;
    /** Sent first and not measured: they warm up the JIT along the whole path. */
    private static final int WARM_UP = 100;
    /** Each sent as soon as the one before was answered, while the sockets may still be receiving it. */
    private static final int BACK_TO_BACK = 200;
    /** Each sent once every socket has the one before: the time one message takes on an idle server. */
    private static final int ONE_AT_A_TIME = 100;

    private final StoreUnderTest store;
    @RegisterExtension
    final RunningServer server;

    LiveOnLatencyTest(StoreUnderTest store) {
        this.store = store;
        this.server = RunningServer.on(() -> TestConfigs.unthrottled(store.config()));
    }

    @Test
    void every_socket_in_a_chat_of_a_hundred_gets_every_message_once_and_the_time_it_took_is_reported() throws Exception {
        try (ChatCrowd crowd = ChatCrowd.create(server.api(), 1, SOCKETS)) {
            crowd.connectAll(server);
            ChatCrowd.Chat chat = crowd.chats().getFirst();
            List<LiveClient> sockets = crowd.clientsOf(chat);
            assertThat(sockets).hasSize(SOCKETS);

            // Message i (from 0) has id i + 2, after the opening message, and says "m<i>".
            int total = WARM_UP + BACK_TO_BACK + ONE_AT_A_TIME;
            long[] sentAt = new long[total];
            Histogram sendCalls = new Histogram(3);
            for (int i = 0; i < total; i++) {
                sentAt[i] = System.nanoTime();
                ApiClient.Response sent = server.api().postJson("/api/chats/" + chat.id() + "/messages", chat.creatorToken(),
                        Map.of("message", "m" + i));
                long answered = System.nanoTime();
                assertThat(sent.status()).as(sent.toString()).isEqualTo(201);
                if (i >= WARM_UP) {
                    sendCalls.recordValue(TimeUnit.NANOSECONDS.toMicros(answered - sentAt[i]));
                }
                if (i >= WARM_UP + BACK_TO_BACK - 1) {
                    // Paced from the last back-to-back message on: the next waits until every socket has this one.
                    awaitEverywhere(sockets, i + 2);
                }
            }

            List<String> everything = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                everything.add((i + 2) + " m" + i);
            }
            Histogram backToBack = new Histogram(3);
            Histogram oneAtATime = new Histogram(3);
            for (LiveClient socket : sockets) {
                List<String> expected = new ArrayList<>(everything);
                if (socket != crowd.creatorOf(chat)) {
                    expected.addFirst("1 hello");
                }
                assertThat(socket.messages(chat.id())).as("one socket's messages, each once, in order").isEqualTo(expected);
                for (LiveClient.Received received : socket.received()) {
                    if (!received.type().equals("message")) {
                        continue;
                    }
                    String text = received.event().get("message").get("message").stringValue();
                    int i = text.startsWith("m") ? Integer.parseInt(text.substring(1)) : -1;
                    if (i >= WARM_UP) {
                        Histogram phase = i < WARM_UP + BACK_TO_BACK ? backToBack : oneAtATime;
                        phase.recordValue(TimeUnit.NANOSECONDS.toMicros(received.nanos() - sentAt[i]));
                    }
                }
            }
            assertThat(backToBack.getTotalCount()).isEqualTo((long) SOCKETS * BACK_TO_BACK);
            assertThat(oneAtATime.getTotalCount()).isEqualTo((long) SOCKETS * ONE_AT_A_TIME);
            System.out.printf("live latency, %s, %d sockets in one chat, %d messages to warm up, then%n", store, SOCKETS,
                    WARM_UP);
            report(BACK_TO_BACK + " back to back", backToBack);
            report(ONE_AT_A_TIME + " one at a time", oneAtATime);
            report("the HTTP send call alone", sendCalls);
        }
    }

    private static void awaitEverywhere(List<LiveClient> sockets, long id) throws InterruptedException {
        for (LiveClient socket : sockets) {
            socket.next(event -> event.get("type").stringValue().equals("message")
                    && event.get("message").get("id").longValue() == id);
        }
    }

    private static void report(String what, Histogram micros) {
        System.out.printf("  %-26s median %6.2f ms, p90 %6.2f ms, p99 %6.2f ms, max %6.2f ms (%d samples)%n", what + ":",
                millis(micros, 50), millis(micros, 90), millis(micros, 99), micros.getMaxValue() / 1000.0,
                micros.getTotalCount());
    }

    private static double millis(Histogram histogram, double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }
}
