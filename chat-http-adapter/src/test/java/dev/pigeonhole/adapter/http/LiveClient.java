package dev.pigeonhole.adapter.http;

import java.net.URI;
import java.nio.ByteBuffer;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A WebSocket client for tests: every frame it receives, parsed, in order, and how it was closed. */
final class LiveClient implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
    final CompletableFuture<Integer> closedWith = new CompletableFuture<>();
    /** How many pings the server sent. */
    final AtomicInteger pings = new AtomicInteger();
    private final WebSocket socket;

    private LiveClient(URI uri) {
        this.socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(PATIENCE)
                .buildAsync(uri, new WebSocket.Listener() {
                    private final StringBuilder partial = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                        partial.append(data);
                        if (last) {
                            events.add(JSON.readTree(partial.toString()));
                            partial.setLength(0);
                        }
                        ws.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onPing(WebSocket ws, ByteBuffer message) {
                        // The client answers with a pong by itself.
                        pings.incrementAndGet();
                        ws.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
                        closedWith.complete(statusCode);
                        return null;
                    }

                    @Override
                    public void onError(WebSocket ws, Throwable error) {
                        closedWith.completeExceptionally(error);
                    }
                }).join();
    }

    /** Connects with the token in the query, as a browser does. */
    static LiveClient connect(TestApi api, String token) {
        return new LiveClient(URI.create("ws://127.0.0.1:" + api.server.port() + "/api/live?token=" + token));
    }

    /** The next event, failing the test if none comes in time. */
    JsonNode next() throws InterruptedException {
        JsonNode event = events.poll(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        if (event == null) {
            throw new AssertionError("no live event within " + PATIENCE);
        }
        return event;
    }

    /** The next event of a type, skipping others (presence comes and goes around any request). */
    JsonNode next(String type) throws InterruptedException {
        while (true) {
            JsonNode event = next();
            if (type.equals(event.get("type").stringValue())) {
                return event;
            }
        }
    }

    /** Everything received so far, without waiting. */
    List<JsonNode> drained() {
        List<JsonNode> all = new ArrayList<>();
        events.drainTo(all);
        return all;
    }

    @Override
    public void close() {
        socket.abort();
    }
}
