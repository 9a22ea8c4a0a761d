package dev.pigeonhole.benchmarks.load;

import dev.pigeonhole.benchmarks.cli.CommandLines;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How a running server copes with many live sockets: distinct users open one socket each, one
 * after another, and the benchmark reports how fast they connect (at the start and at the end,
 * to show whether connecting slows down as sockets pile up), how much resident memory the server
 * holds per idle socket, and how long one message takes to reach the last socket of a large chat.
 *
 * <p>Users are signed in and their chats created before any socket opens, so the connect rate is
 * the upgrade and the feed's setup alone. The first {@code --chat-members} users share one large
 * chat; every user is also in a small group ({@code --group-size}), so that each one coming
 * online has co-members to be told of, as a real user has. A few warm-up sockets of users in no
 * chat are opened and closed first: the server's code is then compiled, and its heap grown, before
 * the first measured connect.
 *
 * <p>Memory is read from {@code /proc/<pid>/status} (VmRSS) before and after, each time after a
 * full collection asked of the server with {@code jcmd}, which also reports the heap in use; both
 * need {@code --server-pid} and a server on this machine run by the same user.
 *
 * <p>Everything is bounded: each call and open has its own timeout, and the whole run a time limit
 * ({@code --time-limit}); sockets still open are closed at the end, however it ends.
 */
public final class ConnectionsBenchmark {

    private static final Duration CALL_TIMEOUT = ServerApi.CALL_TIMEOUT;
    /** Concurrent HTTP calls while setting up: enough to be quick, few enough not to need a socket each. */
    private static final int SETUP_PARALLELISM = 16;
    /** Presence is batched about once a second; past two of its ticks every socket has settled. */
    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final Duration BETWEEN_ROUNDS = Duration.ofMillis(300);

    private final ConnectionsOptions options;
    private final String run = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(0, 6);
    private final String marker = "cb:" + run + ":r";
    private final long deadline;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient http;
    private final ServerApi api;
    private final ServerProbe probe;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicLong errors = new AtomicLong();
    private final List<WebSocket> open = new ArrayList<>();

    /** The fan-out round each member's socket is waiting for, and what it records of it. */
    private volatile FanOutRound round;

    private ConnectionsBenchmark(ConnectionsOptions options) {
        this.options = options;
        this.deadline = System.nanoTime() + options.timeLimit().toNanos();
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .executor(threads)
                .build();
        this.api = new ServerApi(http, options.url());
        this.probe = new ServerProbe(options.serverPid(), options.url(), http);
    }

    public static void main(String[] args) {
        ConnectionsOptions.Flags flags = new ConnectionsOptions.Flags();
        ConnectionsOptions options = CommandLines.parseOrExit(flags, args, flags::options);
        ConnectionsBenchmark benchmark = new ConnectionsBenchmark(options);
        int status = 0;
        try {
            Map<String, Object> result = benchmark.measure();
            System.out.print(ConnectionsResult.summary(result));
            if (options.out().isPresent()) {
                Files.writeString(options.out().get(), ServerApi.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result) + "\n");
            }
        } catch (Exception e) {
            System.err.println("connections benchmark failed: " + e);
            status = 1;
        } finally {
            benchmark.closeAll();
        }
        // The HttpClient's selector thread is not a daemon on every JDK; leave deliberately.
        System.exit(status);
    }

    private String user(int i) {
        return "cb-" + run + "-u" + i;
    }

    private String warmupUser(int i) {
        return "cb-" + run + "-w" + i;
    }

    private String bigChat() {
        return "cb-" + run + "-big";
    }

    Map<String, Object> measure() throws Exception {
        int n = options.sockets();
        int members = options.chatMembers();
        System.err.printf("run %s: signing in %d users (and %d for the warm-up)%n", run, n, options.warmupSockets());
        String[] tokens = signIn(n, this::user);
        String[] warmupTokens = signIn(options.warmupSockets(), this::warmupUser);
        createChats(tokens);

        System.err.printf("warm-up: opening and closing %d sockets of users in no chat%n", warmupTokens.length);
        List<WebSocket> warmup = new ArrayList<>();
        List<Listener> warmupListeners = new ArrayList<>();
        for (String token : warmupTokens) {
            Listener listener = new Listener(-1);
            warmupListeners.add(listener);
            warmup.add(openSocket(token, listener));
        }
        warmupListeners.forEach(listener -> listener.leaving = true);
        warmup.forEach(ConnectionsBenchmark::close);
        synchronized (open) {
            open.removeAll(warmup);
        }
        Thread.sleep(SETTLE.toMillis());

        ServerProbe.Memory before = probe.memory();
        OptionalLong serverCpuBefore = probe.serverCpuMillis();
        long clientCpuBefore = ServerProbe.clientCpuMillis();
        System.err.printf("opening %d sockets one after another%n", n);
        long[] done = new long[n];
        long begin = System.nanoTime();
        int opened = 0;
        for (int i = 0; i < n; i++) {
            if (System.nanoTime() > deadline) {
                System.err.printf("time limit reached after %d sockets%n", i);
                break;
            }
            openSocket(tokens[i], new Listener(i < members ? i : -1));
            done[i] = System.nanoTime();
            opened++;
            if ((i + 1) % 1000 == 0) {
                System.err.printf("  %d open, %.0f/s over the last 1000%n", i + 1,
                        1000 * 1e9 / (done[i] - (i >= 1000 ? done[i - 1000] : begin)));
            }
        }
        OptionalLong serverCpuAfter = probe.serverCpuMillis();
        long clientCpu = ServerProbe.clientCpuMillis() - clientCpuBefore;
        Thread.sleep(SETTLE.toMillis());
        OptionalLong sessions = probe.liveSessions();
        ServerProbe.Memory after = probe.memory();

        List<Double> lastOf = new ArrayList<>();
        List<Double> medianOf = new ArrayList<>();
        if (opened >= members) {
            System.err.printf("fan-out: %d rounds (and one warm-up) of one message to %d sockets%n", options.rounds(), members);
            for (int r = 0; r <= options.rounds() && System.nanoTime() < deadline; r++) {
                FanOutRound sent = fanOut(r, tokens[0], members);
                if (r > 0) {
                    lastOf.add(sent.lastMillis());
                    medianOf.add(sent.medianMillis());
                }
                Thread.sleep(BETWEEN_ROUNDS.toMillis());
            }
        }
        closeAll();
        Map<String, Object> result = ConnectionsResult.json(options, opened, begin, done, before, after, sessions,
                lastOf, medianOf, errors.get());
        result.put("serverCpuMillisPerConnect", serverCpuBefore.isPresent() && serverCpuAfter.isPresent() && opened > 0
                ? ConnectionsResult.round2((double) (serverCpuAfter.getAsLong() - serverCpuBefore.getAsLong()) / opened) : null);
        result.put("clientCpuMillisPerConnect", opened > 0 ? ConnectionsResult.round2((double) clientCpu / opened) : null);
        return result;
    }

    // ---------------------------------------------------------------- setup

    private String[] signIn(int count, java.util.function.IntFunction<String> name) throws Exception {
        String[] tokens = new String[count];
        inParallel(count, i -> {
            HttpResponse<String> response = api.post("/api/session", null, Map.of("user", name.apply(i)));
            expect(response, 200, "POST /api/session");
            tokens[i] = ServerApi.JSON.readTree(response.body()).path("token").asString();
        });
        return tokens;
    }

    /** The large chat of the first members, then each small group, created by its first member. */
    private void createChats(String[] tokens) throws Exception {
        int members = options.chatMembers();
        List<String> others = new ArrayList<>();
        for (int i = 1; i < members; i++) {
            others.add(user(i));
        }
        expect(api.post("/api/chats", tokens[0], Map.of("chatId", bigChat(), "members", others, "message", "connections run")),
                201, "POST /api/chats (the large chat)");
        int size = options.groupSize();
        if (size == 0) {
            return;
        }
        int groups = (tokens.length + size - 1) / size;
        inParallel(groups, g -> {
            int first = g * size;
            List<String> group = new ArrayList<>();
            for (int i = first + 1; i < Math.min(first + size, tokens.length); i++) {
                group.add(user(i));
            }
            Map<String, Object> body = Map.of("chatId", "cb-" + run + "-g" + g, "members", group, "message", "group");
            expect(api.post("/api/chats", tokens[first], body), 201, "POST /api/chats (a group)");
        });
    }

    private interface Step {
        void run(int i) throws Exception;
    }

    private void inParallel(int count, Step step) throws Exception {
        Semaphore permits = new Semaphore(SETUP_PARALLELISM);
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int index = i;
            permits.acquire();
            futures.add(threads.submit(() -> {
                try {
                    step.run(index);
                } finally {
                    permits.release();
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(remaining(), TimeUnit.NANOSECONDS);
        }
    }

    private WebSocket openSocket(String token, Listener listener) throws Exception {
        WebSocket socket = http.newWebSocketBuilder()
                .connectTimeout(CALL_TIMEOUT)
                .buildAsync(api.live(token), listener)
                .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        synchronized (open) {
            open.add(socket);
        }
        return socket;
    }

    private static void expect(HttpResponse<String> response, int status, String what) {
        if (response.statusCode() != status) {
            String body = response.body().length() > 300 ? response.body().substring(0, 300) : response.body();
            throw new IllegalStateException(what + " answered " + response.statusCode() + ": " + body
                    + (response.statusCode() == 429 ? " (start the server with --rate-create none --rate-invite none)" : ""));
        }
    }

    private long remaining() {
        return Math.max(1, deadline - System.nanoTime());
    }

    // ---------------------------------------------------------------- fan-out

    /** One message to the large chat; every member's socket notes when it arrives. */
    private FanOutRound fanOut(int number, String senderToken, int members) throws Exception {
        FanOutRound r = new FanOutRound(number, members);
        round = r;
        r.start = System.nanoTime();
        HttpResponse<String> response = api.post("/api/chats/" + bigChat() + "/messages",
                senderToken, Map.of("message", marker + number));
        expect(response, 201, "POST the fan-out message");
        if (!r.all.await(FanOutRound.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            errors.incrementAndGet();
            System.err.printf("round %d: only %d of %d sockets got the message within %s%n",
                    number, members - r.all.getCount(), members, FanOutRound.TIMEOUT);
        }
        return r;
    }

    /** Counts the round's message once per socket; ignores everything else without parsing it. */
    private final class Listener implements WebSocket.Listener {
        /** Index among the large chat's members, or -1 for a socket outside it. */
        private final int member;
        private final StringBuilder partial = new StringBuilder();
        private int lastRound = -1;
        /** Closed on purpose before the end: the server's answering close is no failure. */
        volatile boolean leaving;

        Listener(int member) {
            this.member = member;
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            if (member >= 0) {
                partial.append(data);
                if (last) {
                    long now = System.nanoTime();
                    seen(partial, now);
                    partial.setLength(0);
                }
            }
            socket.request(1);
            return null;
        }

        private void seen(CharSequence text, long now) {
            FanOutRound r = round;
            if (r == null || r.number <= lastRound) {
                return;
            }
            String frame = text.toString();
            int at = frame.indexOf(marker);
            if (at < 0) {
                return;
            }
            int from = at + marker.length();
            int to = from;
            while (to < frame.length() && Character.isDigit(frame.charAt(to))) {
                to++;
            }
            if (to > from && Integer.parseInt(frame, from, to, 10) == r.number) {
                lastRound = r.number;
                r.arrived(now);
            }
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            if (!closing.get() && !leaving) {
                errors.incrementAndGet();
                System.err.println("a socket was closed by the server: " + status + " " + reason);
            }
            return null;
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            if (!closing.get() && !leaving) {
                errors.incrementAndGet();
                System.err.println("a socket failed: " + error);
            }
        }
    }

    // ---------------------------------------------------------------- the end

    void closeAll() {
        closing.set(true);
        List<WebSocket> all;
        synchronized (open) {
            all = new ArrayList<>(open);
            open.clear();
        }
        all.forEach(ConnectionsBenchmark::close);
    }

    private static void close(WebSocket socket) {
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").orTimeout(2, TimeUnit.SECONDS)
                .whenComplete((ws, failure) -> socket.abort());
    }
}
