package dev.pigeonhole.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One client of {@code GET /api/live}, on {@code java.net.http}: every event it receives, parsed
 * and stamped with {@link System#nanoTime()} on arrival, in order, and how the server closed it.
 *
 * <p>All clients share one {@link HttpClient} on virtual threads, so a thousand of them cost one
 * selector thread and no pool of platform threads.
 */
final class LiveSocketClient implements AutoCloseable {

    /** An event as it arrived: when (nanoTime) and what. */
    record Received(long nanos, JsonNode event) {

        String type() {
            return event.get("type").stringValue();
        }
    }

    /** How the server closed the socket. */
    record Closing(int code, String reason) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(15);
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .connectTimeout(PATIENCE)
            .build();

    private final BlockingQueue<Received> unread = new LinkedBlockingQueue<>();
    private final List<Received> all = new ArrayList<>();
    private final CompletableFuture<Closing> closed = new CompletableFuture<>();
    private volatile WebSocket socket;

    private LiveSocketClient() {
    }

    /** Opens a socket to the server on {@code port}, signed in with the token in the query, as a browser does. */
    static CompletableFuture<LiveSocketClient> open(int port, String token) {
        LiveSocketClient client = new LiveSocketClient();
        return HTTP.newWebSocketBuilder().connectTimeout(PATIENCE)
                .buildAsync(URI.create("ws://127.0.0.1:" + port + "/api/live?token=" + token), client.new Listener())
                .thenApply(socket -> {
                    client.socket = socket;
                    return client;
                });
    }

    static LiveSocketClient connect(Server server, String token) {
        return open(server.port(), token).orTimeout(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).join();
    }

    /** The next event that {@code wanted} accepts, skipping others; fails the test if none comes in time. */
    Received next(Predicate<JsonNode> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            Received received = unread.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (received == null) {
                throw new AssertionError("no wanted live event within " + PATIENCE + "; closed: " + closing());
            }
            if (wanted.test(received.event())) {
                return received;
            }
        }
    }

    /** The next event of a type, skipping others (presence comes and goes around any request). */
    Received next(String type) throws InterruptedException {
        return next(event -> type.equals(event.get("type").stringValue()));
    }

    /** Every event received so far, in order. */
    List<Received> received() {
        synchronized (all) {
            return List.copyOf(all);
        }
    }

    /** The message events received so far for {@code chat}, as "id text", in order. */
    List<String> messages(String chat) {
        return received().stream()
                .filter(received -> received.type().equals("message"))
                .map(Received::event)
                .filter(event -> event.get("chatId").stringValue().equals(chat))
                .map(event -> event.get("message").get("id").longValue() + " " + event.get("message").get("message").stringValue())
                .toList();
    }

    /** How many message events have arrived, of any chat. */
    long messageCount() {
        return received().stream().filter(received -> received.type().equals("message")).count();
    }

    /** Completes when the server closes the socket (or it fails). */
    CompletableFuture<Closing> closed() {
        return closed;
    }

    private String closing() {
        return closed.isDone() ? closed.handle((how, failure) -> how != null ? how.toString() : failure.toString()).join() : "no";
    }

    /** Drops the connection at once, as a client that goes away does. */
    @Override
    public void close() {
        WebSocket open = socket;
        if (open != null) {
            open.abort();
        }
    }

    private final class Listener implements WebSocket.Listener {

        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            long now = System.nanoTime();
            partial.append(data);
            if (last) {
                Received received = new Received(now, JSON.readTree(partial.toString()));
                partial.setLength(0);
                synchronized (all) {
                    all.add(received);
                }
                unread.add(received);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            closed.complete(new Closing(statusCode, reason));
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            closed.completeExceptionally(error);
        }
    }
}
