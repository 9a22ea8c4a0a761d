package dev.pigeonhole.adapter.http;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryQuotas;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.service.chat.ChatService;
import dev.pigeonhole.domain.service.live.LiveService;
import dev.pigeonhole.domain.service.live.SubscriptionMultiplexer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The loop on its own, over a real feed (the domain's live service on the in-memory store) and a
 * transport that records what it is handed and never reports a frame written, like a client that
 * stopped reading. What the WebSocket and the event stream make of it is for their own tests.
 */
class LiveLoopTest {

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    /** In no chat: her feed has nothing to hand out. */
    private static final UserId CAROL = UserId.of("carol");
    /** Short, so a keep-alive is due every ten milliseconds. */
    private static final Duration IDLE_TIMEOUT = Duration.ofMillis(30);
    /** Less than any frame: the first goes out alone, and nothing after it fits. */
    private static final int BOUND = 1;
    private static final String KEEP_ALIVE = "keep-alive";
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final InstantSource clock = InstantSource.fixed(Instant.parse("2026-11-21T10:00:00Z"));
    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryChats store = new InMemoryChats(Limits.DEFAULTS, channels);
    private final SubscriptionMultiplexer multiplexer = new SubscriptionMultiplexer(channels, 256);
    private final LiveService live = new LiveService(multiplexer, store, clock);
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    /** Bob has one message waiting in a chat with alice, for his feed's catch-up. */
    @BeforeEach
    void openChatWithOneMessage() {
        store.open(ChatId.of("c"), ALICE, Set.of(BOB), "one", clock.instant());
    }

    @AfterEach
    void closeTheFeeds() {
        multiplexer.close();
    }

    @Test
    void a_keep_alive_that_holds_nothing_goes_out_however_much_waits_unwritten() throws Exception {
        Recording transport = new Recording(0, false);
        LiveLoop<String> loop = loop(BOB, transport);
        Thread.ofVirtual().start(loop::run);

        // The catch-up's message stays unwritten; the keep-alives after it go out all the same.
        await().atMost(PATIENCE).until(() -> keepAlivesAfterTheMessage(transport.handed()) >= 3);
        assertThat(transport.ending()).as("not cut off").isNotDone();

        loop.stop();
        assertThat(transport.ending().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(LiveLoop.Ending.STOPPING);
    }

    @Test
    void a_keep_alive_that_holds_bytes_past_the_bound_cuts_the_client_off_as_slow() throws Exception {
        Recording transport = new Recording(KEEP_ALIVE.length(), false);
        Thread.ofVirtual().start(loop(CAROL, transport)::run);

        assertThat(transport.ending().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(LiveLoop.Ending.SLOW);
        assertThat(transport.handed()).as("the first, alone; the second would have gone past the bound")
                .containsExactly(KEEP_ALIVE);
        // Counted right after the transport is told, on the loop's thread: wait for it, not for a moment.
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(registry.get("pigeonhole.live.cut.off.slow").counter().count()).isEqualTo(1.0));
    }

    @Test
    void a_feed_the_server_shuts_down_ends_its_connection_as_stopping() throws Exception {
        Recording transport = new Recording(0, false);
        Thread running = Thread.ofVirtual().start(loop(BOB, transport)::run);
        await().atMost(PATIENCE).until(() -> !transport.handed().isEmpty());

        multiplexer.close();
        assertThat(transport.ending().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(LiveLoop.Ending.STOPPING);
        assertThat(running.join(PATIENCE)).as("the loop returned").isTrue();
    }

    @Test
    void a_transport_that_fails_ends_its_connection_as_a_server_error_and_the_loop_lets_go_of_the_feed() throws Exception {
        Recording transport = new Recording(0, true);
        Thread running = Thread.ofVirtual().start(loop(BOB, transport)::run);

        assertThat(transport.ending().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(LiveLoop.Ending.SERVER_ERROR);
        assertThat(running.join(PATIENCE)).as("the loop returned").isTrue();
        assertThat(multiplexer.upstreamSubscriptions()).as("nothing held for a connection that is over").isZero();
    }

    /** A connection of {@code user}'s, subscribed, for the test to run. */
    private LiveLoop<String> loop(UserId user, Recording transport) {
        return new LiveLoop<>(user, live.subscribe(user), transport, new HttpMetrics(registry), IDLE_TIMEOUT, BOUND);
    }

    /** The feed hands the message out within a poll, so a keep-alive may come before it or after. */
    private static long keepAlivesAfterTheMessage(List<String> handed) {
        int message = -1;
        for (int i = 0; i < handed.size() && message < 0; i++) {
            message = handed.get(i).contains("\"message\":\"one\"") ? i : -1;
        }
        return message < 0 ? 0 : handed.subList(message + 1, handed.size()).stream().filter(KEEP_ALIVE::equals).count();
    }

    /**
     * Frames are their text; a keep-alive holds as many bytes as it is told.
     *
     * @param handed what the loop handed over, in order
     * @param ending why the loop ended the connection, once it has
     */
    private record Recording(int keepAliveBytes, boolean failing, List<String> handed,
                             CompletableFuture<LiveLoop.Ending> ending) implements LiveLoop.Transport<String> {

        Recording(int keepAliveBytes, boolean failing) {
            this(keepAliveBytes, failing, new CopyOnWriteArrayList<>(), new CompletableFuture<>());
        }

        @Override
        public String frame(LiveFrames.Frame shared) {
            return shared.text();
        }

        @Override
        public String keepAlive() {
            return KEEP_ALIVE;
        }

        @Override
        public int bytes(String frame) {
            return frame.equals(KEEP_ALIVE) ? keepAliveBytes : frame.length();
        }

        @Override
        public boolean isOpen() {
            return !ending.isDone();
        }

        @Override
        public boolean isEventStream() {
            return false;
        }

        @Override
        public void write(String frame) {
            if (failing) {
                throw new IllegalStateException("a transport's bug, as the test makes it");
            }
            handed.add(frame);
        }

        @Override
        public void end(LiveLoop.Ending why) {
            ending.complete(why);
        }

        @Override
        public void drop() {
        }
    }
}
