package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A stopping server refuses new requests with a 503 it still answers, says it is not ready, and
 * waits for the requests in flight, up to its drain timeout. Requests are held at a known point
 * by a use case that waits for the test, like a slow store would.
 */
class GracefulStopTest {

    @Test
    void stopping_refuses_new_requests_with_503_but_lets_a_request_in_flight_finish() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (TestApi api = TestApi.start(useCases -> withPresenceHeldAt(useCases, entered, release))) {
            String alice = api.client.signIn("alice");
            assertThat(api.client.get("/health/ready", null).json().get("status").stringValue()).isEqualTo("ready");
            CompletableFuture<ApiClient.Response> inFlight =
                    CompletableFuture.supplyAsync(() -> api.client.get("/api/presence", alice));
            assertThat(entered.await(10, TimeUnit.SECONDS)).as("the request reached the use case").isTrue();

            CompletableFuture<ChatHttpServer.Stopped> stopping =
                    CompletableFuture.supplyAsync(() -> api.server.stop(Duration.ofSeconds(30)));

            await().atMost(Duration.ofSeconds(10)).until(() -> api.client.get("/health/ready", null).status() == 503);
            ApiClient.Response ready = api.client.get("/health/ready", null);
            assertThat(ready.json().get("status").stringValue()).isEqualTo("stopping");
            assertThat(api.client.get("/health", null).status()).as("liveness still answers").isEqualTo(200);
            ApiClient.Response refused = api.client.get("/api/chats", alice);
            ProblemAssertions.assertProblem(refused, 503, "server-stopping");
            assertThat(refused.header("Connection")).contains("close");
            ProblemAssertions.assertProblem(LiveSocketCapAbuseTest.upgrade(api.server.port(), alice), 503,
                    "server-stopping");
            assertThat(stopping).as("stop waits for the request in flight").isNotDone();

            release.countDown();
            ApiClient.Response answered = inFlight.get(10, TimeUnit.SECONDS);
            assertThat(answered.status()).isEqualTo(200);
            assertThat(answered.json().get("online").get(0).stringValue()).isEqualTo("alice");
            ChatHttpServer.Stopped stopped = stopping.get(10, TimeUnit.SECONDS);
            assertThat(stopped.drained()).isTrue();
            assertThat(stopped.cutOff()).isZero();
        }
    }

    @Test
    void a_request_that_outlasts_the_drain_timeout_is_cut_off_and_counted() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        try (TestApi api = TestApi.start(useCases -> withPresenceHeldAt(useCases, entered, never))) {
            String alice = api.client.signIn("alice");
            CompletableFuture<ApiClient.Response> inFlight =
                    CompletableFuture.supplyAsync(() -> api.client.get("/api/presence", alice));
            assertThat(entered.await(10, TimeUnit.SECONDS)).as("the request reached the use case").isTrue();

            ChatHttpServer.Stopped stopped = api.server.stop(Duration.ofMillis(200));

            assertThat(stopped.drained()).isFalse();
            assertThat(stopped.cutOff()).isEqualTo(1);
            assertThat(stopped.took()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
            never.countDown();
            assertThat(inFlight).failsWithin(Duration.ofSeconds(10));
        }
    }

    @Test
    void live_connections_are_told_the_server_goes_away() throws Exception {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            String bob = api.client.signIn("bob");
            LiveClient socket = LiveClient.socket(api.server.port(), bob);
            LiveClient events = LiveClient.events(api.server.port(), bob);
            // Both are open and following once the chat's first message reaches them.
            api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"one\",\"chatId\":\"c\"}");
            socket.nextMessage("c", 1);
            events.nextMessage("c", 1);

            CompletableFuture<ChatHttpServer.Stopped> stopping =
                    CompletableFuture.supplyAsync(() -> api.server.stop(Duration.ofSeconds(30)));

            assertThat(socket.closed().get(10, TimeUnit.SECONDS).code()).isEqualTo(1001);
            assertThat(events.closed().get(10, TimeUnit.SECONDS).reason()).isEqualTo("stopping");
            assertThat(stopping.get(10, TimeUnit.SECONDS).drained()).isTrue();
        }
    }

    /** The presence query waits for the test at its start, like a slow store would. */
    static UseCases withPresenceHeldAt(UseCases real, CountDownLatch entered, CountDownLatch release) {
        ListOnlineUsers held = new ListOnlineUsers() {
            @Override
            public Set<UserId> online(UserId asker) {
                entered.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return real.presence().listOnlineUsers().online(asker);
            }

            @Override
            public Set<UserId> online(UserId asker, Query query) {
                return real.presence().listOnlineUsers().online(asker, query);
            }

            @Override
            public int onlineCount() {
                return real.presence().listOnlineUsers().onlineCount();
            }
        };
        return new UseCases(real.chat(), real.mailbox(), real.consent(), new PresenceUseCases(real.presence().touchPresence(), held),
                real.live());
    }
}
