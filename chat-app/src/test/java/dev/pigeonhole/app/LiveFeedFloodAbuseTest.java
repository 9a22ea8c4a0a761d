package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.LiveClient;
import dev.pigeonhole.adapter.http.ServerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The attack: flood every bystander's live feed with news of strangers, so that its bounded queue
 * fills and it is cut off as slow, or it is pushed hundreds of presence frames. An attacker opens
 * five chats of 999 made-up members each (five thousand membership changes), and two hundred
 * strangers sign in and make one request each (two hundred users coming online).
 *
 * <p>Twenty bystanders are connected meanwhile, each in a small chat of its own with one other
 * bystander. Membership news goes to each user's own channel and presence only to co-members, so
 * none of it reaches them: not one is cut off, and each gets at most a few presence frames, about
 * its own partner. "Nothing more is coming" is a marker message sent afterwards in each
 * bystander's chat: a connection delivers in order, so once it is there, the flood is behind it.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreUnderTest.class)
class LiveFeedFloodAbuseTest {


    private static final int BYSTANDERS = 20;
    private static final int FLOODED_CHATS = 5;
    private static final int MADE_UP_MEMBERS = 999;
    private static final int STRANGERS = 200;
    private static final int MOST_PRESENCE_FRAMES = 5;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final StoreUnderTest store;
    @RegisterExtension
    final RunningServer server;

    LiveFeedFloodAbuseTest(StoreUnderTest store) {
        this.store = store;
        this.server = RunningServer.on(store::config);
    }

    @Test
    void huge_made_up_chats_and_strangers_signing_in_cut_off_no_bystander_and_push_it_almost_no_presence()
            throws Exception {
        List<String> bystanders = IntStream.range(0, BYSTANDERS).mapToObj(i -> ApiClient.randomUser("by" + i)).toList();
        List<String> tokens = bystanders.stream().map(server.api()::signIn).toList();
        List<String> chats = new ArrayList<>();
        for (int pair = 0; pair < BYSTANDERS; pair += 2) {
            chats.add(server.openChat(tokens.get(pair), List.of(bystanders.get(pair + 1)), "just us two"));
        }
        List<LiveClient> sockets = new ArrayList<>();
        try {
            tokens.forEach(token -> sockets.add(LiveClient.socket(server.port(), token)));
            await().atMost(PATIENCE).until(() -> ServerMetrics.liveSessions(server.api()) == BYSTANDERS);

            flood();

            for (int pair = 0; pair < BYSTANDERS; pair += 2) {
                server.send(tokens.get(pair), chats.get(pair / 2), "marker");
            }
            for (int i = 0; i < BYSTANDERS; i++) {
                sockets.get(i).awaitMessage(chats.get(i / 2), 2);
            }

            long cutOff = (long) ServerMetrics.cutOffAsSlow(server.api());
            long mostFrames = sockets.stream().mapToLong(LiveFeedFloodAbuseTest::presenceFrames).max().orElse(0);
            System.out.printf("flood on %s: %d of %d bystanders cut off, at most %d presence frames each%n", store, cutOff,
                    BYSTANDERS, mostFrames);
            assertThat(cutOff).as("bystanders cut off as slow").isZero();
            for (int i = 0; i < BYSTANDERS; i++) {
                LiveClient socket = sockets.get(i);
                assertThat(socket.closed()).as("%s's socket", bystanders.get(i)).isNotDone();
                long presenceFrames = presenceFrames(socket);
                assertThat(presenceFrames).as("presence frames pushed to %s", bystanders.get(i))
                        .isLessThanOrEqualTo(MOST_PRESENCE_FRAMES);
            }
        } finally {
            sockets.forEach(LiveClient::close);
        }
    }

    private static long presenceFrames(LiveClient socket) {
        return socket.received().stream().filter(received -> received.type().equals("presence")).count();
    }

    /** Five chats of 999 made-up members, and two hundred strangers coming online, four at a time. */
    private void flood() throws Exception {
        String attacker = server.api().signIn(ApiClient.randomUser("attacker"));
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> done = new ArrayList<>();
            for (int chat = 0; chat < FLOODED_CHATS; chat++) {
                done.add(pool.submit(() -> server.openChat(attacker,
                        IntStream.range(0, MADE_UP_MEMBERS).mapToObj(i -> ApiClient.randomUser("made-up")).toList(),
                        "look at all my friends")));
            }
            for (int i = 0; i < STRANGERS; i++) {
                done.add(pool.submit(() -> {
                    String stranger = server.api().signIn(ApiClient.randomUser("stranger"));
                    ApiClient.Response answered = server.api().get("/api/chats", stranger);
                    assertThat(answered.status()).as(answered.toString()).isEqualTo(200);
                }));
            }
            for (Future<?> each : done) {
                each.get();
            }
        }
    }
}
