package dev.pigeonhole.benchmarks.load;

import static dev.pigeonhole.benchmarks.load.Failures.brief;
import static dev.pigeonhole.benchmarks.load.Failures.oneLine;

import dev.pigeonhole.benchmarks.load.Failures.SetupFailure;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Everything the load generator does before its clock starts: every user signed in, every chat
 * created, a live socket open for each user, each step in parallel and each call bounded. The
 * names carry the run's id, so that runs against one server never share a user or a chat.
 */
final class LoadSetup {

    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(15);

    private final LoadOptions options;
    private final String run;
    private final HttpClient http;
    private final ServerApi api;
    private final ExecutorService threads;

    LoadSetup(LoadOptions options, String run, HttpClient http, ExecutorService threads) {
        this.options = options;
        this.run = run;
        this.http = http;
        this.api = new ServerApi(http, options.url());
        this.threads = threads;
    }

    String user(int i) {
        return "lg-" + run + "-u" + i;
    }

    String chat(int c) {
        return "lg-" + run + "-c" + c;
    }

    /** Every user signed in; their tokens, in user order, into {@code tokens}. */
    void signIn(List<String> tokens) throws Exception {
        List<Future<String>> signIns = new ArrayList<>();
        for (int i = 0; i < options.users(); i++) {
            String name = user(i);
            signIns.add(threads.submit(() -> signIn(name)));
        }
        for (Future<String> f : signIns) {
            tokens.add(f.get(SETUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        }
    }

    void createChats(List<String> tokens) throws Exception {
        List<Future<?>> creates = new ArrayList<>();
        for (int c = 0; c < options.chats(); c++) {
            int chat = c;
            creates.add(threads.submit(() -> {
                createChat(chat, tokens);
                return null;
            }));
        }
        for (Future<?> f : creates) {
            f.get(SETUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /**
     * A socket for each user, heard by the listener {@code listener} gives for it; each into
     * {@code sockets} as it opens, so that a failure half-way still leaves the open ones to close.
     */
    void openSockets(List<String> tokens, IntFunction<WebSocket.Listener> listener, List<WebSocket> sockets)
            throws Exception {
        List<Future<WebSocket>> opens = new ArrayList<>();
        for (int i = 0; i < options.users(); i++) {
            int u = i;
            opens.add(threads.submit(() -> http.newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .buildAsync(api.live(tokens.get(u)), listener.apply(u))
                    .get(SETUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)));
        }
        for (Future<WebSocket> f : opens) {
            sockets.add(f.get(SETUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        }
    }

    private String signIn(String name) throws Exception {
        HttpResponse<String> response;
        try {
            response = api.post("/api/session", null, Map.of("user", name));
        } catch (IOException e) {
            throw new SetupFailure("cannot reach " + options.url() + ": " + oneLine(e));
        }
        if (response.statusCode() != 200) {
            throw new SetupFailure("POST /api/session answered " + response.statusCode() + ": " + brief(response.body()));
        }
        return ServerApi.JSON.readTree(response.body()).path("token").asString();
    }

    /** The lowest-numbered member creates the chat and names the others. */
    private void createChat(int c, List<String> tokens) throws Exception {
        List<String> others = new ArrayList<>();
        for (int u = c + options.chats(); u < options.users(); u += options.chats()) {
            others.add(user(u));
        }
        Map<String, Object> body = Map.of("chatId", chat(c), "members", others, "message", "load run " + run);
        HttpResponse<String> response = api.post("/api/chats", tokens.get(c), body);
        if (response.statusCode() != 201) {
            throw new SetupFailure("POST /api/chats answered " + response.statusCode() + ": " + brief(response.body()));
        }
    }
}
