package dev.pigeonhole.adapter.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One live client for tests, over either transport: {@code GET /api/live} (WebSocket) or
 * {@code GET /api/events} (Server-Sent Events). Both give the same thing: every event, parsed and
 * stamped with {@link System#nanoTime()} on arrival, in order, and how the server ended it.
 *
 * <p>All clients share one {@link HttpClient} on virtual threads, so a thousand of them cost one
 * selector thread and no pool of platform threads. Both sign in with the token in the query, as a
 * browser does.
 */
public final class LiveClient implements AutoCloseable {

    /** An event as it arrived: when (nanoTime), what, its SSE id if it had one, and its text as sent. */
    public record Received(long nanos, JsonNode event, Optional<String> id, String text) {

        public String type() {
            return event.get("type").stringValue();
        }
    }

    /**
     * How the server ended the connection: a WebSocket's close code and reason, or for an event
     * stream code 0 and the reason of its {@code closed} event ("ended" if none came).
     */
    public record Closing(int code, String reason) {
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
    private final AtomicInteger keepAlives = new AtomicInteger();
    private volatile String lastEventId;
    private volatile Runnable abort = () -> { };

    private LiveClient() {
    }

    /** A WebSocket to the server on {@code port}. */
    public static CompletableFuture<LiveClient> openSocket(int port, String token) {
        LiveClient client = new LiveClient();
        return HTTP.newWebSocketBuilder().connectTimeout(PATIENCE)
                .buildAsync(URI.create("ws://127.0.0.1:" + port + "/api/live?token=" + token), client.new SocketListener())
                .thenApply(socket -> {
                    client.abort = socket::abort;
                    return client;
                });
    }

    public static LiveClient socket(int port, String token) {
        return openSocket(port, token).orTimeout(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).join();
    }

    /**
     * An event stream from the server on {@code port}, resuming after {@code lastEventId} as a
     * reconnecting browser does, or from the start if it is null. Completes once the server
     * answered 200; any other answer fails it with the status and body.
     */
    public static CompletableFuture<LiveClient> openEvents(int port, String token, String lastEventId) {
        LiveClient client = new LiveClient();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/events?token=" + token))
                .header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
            client.lastEventId = lastEventId;
        }
        return HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream()).thenApply(response -> {
            InputStream body = response.body();
            if (response.statusCode() != 200) {
                try (body) {
                    throw new AssertionError("the event stream was refused: " + response.statusCode() + " "
                            + new String(body.readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new AssertionError("the event stream was refused: " + response.statusCode(), e);
                }
            }
            client.abort = () -> {
                try {
                    body.close();
                } catch (IOException ignored) {
                    // Going away anyway.
                }
            };
            Thread.ofVirtual().name("sse-client").start(() -> client.readEvents(body));
            return client;
        });
    }

    public static LiveClient events(int port, String token) {
        return events(port, token, null);
    }

    public static LiveClient events(int port, String token, String lastEventId) {
        return openEvents(port, token, lastEventId).orTimeout(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).join();
    }

    /** The next event that {@code wanted} accepts, skipping others; fails the test if none comes in time. */
    public Received next(Predicate<JsonNode> wanted) throws InterruptedException {
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
    public Received next(String type) throws InterruptedException {
        return next(event -> type.equals(event.get("type").stringValue()));
    }

    /** The next message event of {@code chat} with id {@code id}, skipping everything before it. */
    public Received nextMessage(String chat, long id) throws InterruptedException {
        return next(event -> event.get("type").stringValue().equals("message")
                && event.get("chatId").stringValue().equals(chat)
                && event.get("message").get("id").longValue() == id);
    }

    /**
     * Waits until a message event of {@code chat} with id {@code id} has arrived, whenever it did:
     * unlike {@link #next}, this passes nothing over, so waiting on several chats in any order works.
     */
    public void awaitMessage(String chat, long id) {
        Awaitility.await("message " + id + " of " + chat).atMost(PATIENCE).pollInterval(Duration.ofMillis(10))
                .until(() -> received().stream().anyMatch(received -> received.type().equals("message")
                        && received.event().get("chatId").stringValue().equals(chat)
                        && received.event().get("message").get("id").longValue() == id));
    }

    /** Every event received so far, in order. */
    public List<Received> received() {
        synchronized (all) {
            return List.copyOf(all);
        }
    }

    /** The message events received so far for {@code chat}, as "id text", in order. */
    public List<String> messages(String chat) {
        return received().stream()
                .filter(received -> received.type().equals("message"))
                .map(Received::event)
                .filter(event -> event.get("chatId").stringValue().equals(chat))
                .map(event -> event.get("message").get("id").longValue() + " " + event.get("message").get("message").stringValue())
                .toList();
    }

    /** How many message events have arrived, of any chat. */
    public long messageCount() {
        return received().stream().filter(received -> received.type().equals("message")).count();
    }

    /** What keeps a quiet connection open: WebSocket pings, or an event stream's comments. */
    public int keepAlives() {
        return keepAlives.get();
    }

    /** The id a reconnecting browser would send: the last one an event carried (or resumed from). */
    public String lastEventId() {
        return lastEventId;
    }

    /** Completes when the server ends the connection (or it fails). */
    public CompletableFuture<Closing> closed() {
        return closed;
    }

    /** Drops the connection at once, as a client that goes away does. */
    @Override
    public void close() {
        abort.run();
    }

    private String closing() {
        return closed.isDone() ? closed.handle((how, failure) -> how != null ? how.toString() : failure.toString()).join() : "no";
    }

    private void arrived(long nanos, String json, String id) {
        Received received = new Received(nanos, JSON.readTree(json), Optional.ofNullable(id), json);
        synchronized (all) {
            all.add(received);
        }
        unread.add(received);
    }

    /** The stream's events until it ends: the last one says why, a comment is a keep-alive. */
    private void readEvents(InputStream body) {
        try {
            ServerSentEvents.read(body, new ServerSentEvents.Listener() {
                @Override
                public void onEvent(long nanos, String name, String data, String id) {
                    if (id != null) {
                        lastEventId = id;
                    }
                    if (name.equals("closed")) {
                        closed.complete(new Closing(0, JSON.readTree(data).get("reason").stringValue()));
                    } else {
                        arrived(nanos, data, id);
                    }
                }

                @Override
                public void onComment() {
                    keepAlives.incrementAndGet();
                }
            });
            closed.complete(new Closing(0, "ended"));
        } catch (IOException e) {
            closed.completeExceptionally(e);
        }
    }

    private final class SocketListener implements WebSocket.Listener {

        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            long now = System.nanoTime();
            partial.append(data);
            if (last) {
                arrived(now, partial.toString(), null);
                partial.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPing(WebSocket ws, ByteBuffer message) {
            // The client answers with a pong by itself.
            keepAlives.incrementAndGet();
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
