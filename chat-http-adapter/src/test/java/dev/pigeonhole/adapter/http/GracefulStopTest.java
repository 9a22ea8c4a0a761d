package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class GracefulStopTest {

    @Test
    void stopping_refuses_new_connections_but_lets_a_request_in_flight_finish() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (TestApi api = TestApi.start(useCases -> withPresenceHeldAt(useCases, entered, release))) {
            String alice = api.client.signIn("alice");
            CompletableFuture<ApiClient.Response> inFlight =
                    CompletableFuture.supplyAsync(() -> api.client.get("/api/presence", alice));
            assertThat(entered.await(10, TimeUnit.SECONDS)).as("the request reached the use case").isTrue();

            int port = api.server.port();
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(api.server::close);

            await().atMost(Duration.ofSeconds(10)).until(() -> refusesConnections(port));
            assertThat(stopping).as("stop waits for the request in flight").isNotDone();
            release.countDown();
            ApiClient.Response answered = inFlight.get(10, TimeUnit.SECONDS);
            assertThat(answered.status()).isEqualTo(200);
            assertThat(answered.json().get("online").get(0).stringValue()).isEqualTo("alice");
            stopping.get(10, TimeUnit.SECONDS);
        }
    }

    /** The presence query waits for the test at its start, like a slow store would. */
    private static UseCases withPresenceHeldAt(UseCases real, CountDownLatch entered, CountDownLatch release) {
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

    private static boolean refusesConnections(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return false;
        } catch (IOException refused) {
            return true;
        }
    }
}
