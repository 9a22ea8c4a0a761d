package dev.pigeonhole.benchmarks.load;

import dev.pigeonhole.benchmarks.cli.CommandLines;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

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

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    /** Concurrent HTTP calls while setting up: enough to be quick, few enough not to need a socket each. */
    private static final int SETUP_PARALLELISM = 16;
    /** The first stretch of connects, whose rate is the baseline. */
    private static final int FIRST = 100;
    /** Presence is batched about once a second; past two of its ticks every socket has settled. */
    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final Duration ROUND_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration BETWEEN_ROUNDS = Duration.ofMillis(300);
    /** Linux's USER_HZ, which /proc reports CPU time in; 100 on every common build. */
    private static final long CLOCK_TICKS_PER_SECOND = 100;
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    private static final Pattern LIVE_SESSIONS = Pattern.compile("(?m)^pigeonhole_live_sessions\\S*\\s+(\\S+)$");

    private final ConnectionsOptions options;
    private final String run = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(0, 6);
    private final String marker = "cb:" + run + ":r";
    private final long deadline;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient http;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicLong errors = new AtomicLong();
    private final List<WebSocket> open = new ArrayList<>();

    /** The fan-out round each member's socket is waiting for, and what it records of it. */
    private volatile Round round;

    private ConnectionsBenchmark(ConnectionsOptions options) {
        this.options = options;
        this.deadline = System.nanoTime() + options.timeLimit().toNanos();
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .executor(threads)
                .build();
    }

    public static void main(String[] args) {
        ConnectionsOptions.Flags flags = new ConnectionsOptions.Flags();
        ConnectionsOptions options = CommandLines.parseOrExit(flags, args, flags::options);
        ConnectionsBenchmark benchmark = new ConnectionsBenchmark(options);
        int status = 0;
        try {
            Map<String, Object> result = benchmark.measure();
            System.out.print(summary(result));
            if (options.out().isPresent()) {
                Files.writeString(options.out().get(), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result) + "\n");
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

        Memory before = memory();
        OptionalLong serverCpuBefore = serverCpuMillis();
        long clientCpuBefore = clientCpuMillis();
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
        OptionalLong serverCpuAfter = serverCpuMillis();
        long clientCpu = clientCpuMillis() - clientCpuBefore;
        Thread.sleep(SETTLE.toMillis());
        OptionalLong sessions = liveSessions();
        Memory after = memory();

        List<Double> lastOf = new ArrayList<>();
        List<Double> medianOf = new ArrayList<>();
        if (opened >= members) {
            System.err.printf("fan-out: %d rounds (and one warm-up) of one message to %d sockets%n", options.rounds(), members);
            for (int r = 0; r <= options.rounds() && System.nanoTime() < deadline; r++) {
                Round sent = fanOut(r, tokens[0], members);
                if (r > 0) {
                    lastOf.add(sent.lastMillis());
                    medianOf.add(sent.medianMillis());
                }
                Thread.sleep(BETWEEN_ROUNDS.toMillis());
            }
        }
        closeAll();
        Map<String, Object> result = result(opened, begin, done, before, after, sessions, lastOf, medianOf);
        result.put("serverCpuMillisPerConnect", serverCpuBefore.isPresent() && serverCpuAfter.isPresent() && opened > 0
                ? round2((double) (serverCpuAfter.getAsLong() - serverCpuBefore.getAsLong()) / opened) : null);
        result.put("clientCpuMillisPerConnect", opened > 0 ? round2((double) clientCpu / opened) : null);
        return result;
    }

    // ---------------------------------------------------------------- setup

    private String[] signIn(int count, java.util.function.IntFunction<String> name) throws Exception {
        String[] tokens = new String[count];
        inParallel(count, i -> {
            HttpResponse<String> response = post("/api/session", null, Map.of("user", name.apply(i)));
            expect(response, 200, "POST /api/session");
            tokens[i] = JSON.readTree(response.body()).path("token").asString();
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
        expect(post("/api/chats", tokens[0], Map.of("chatId", bigChat(), "members", others, "message", "connections run")),
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
            expect(post("/api/chats", tokens[first], body), 201, "POST /api/chats (a group)");
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
        URI live = URI.create(options.url().toString().replaceFirst("^http", "ws") + "/api/live?token=" + token);
        WebSocket socket = http.newWebSocketBuilder()
                .connectTimeout(CALL_TIMEOUT)
                .buildAsync(live, listener)
                .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        synchronized (open) {
            open.add(socket);
        }
        return socket;
    }

    private HttpResponse<String> post(String path, String token, Object body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(options.url() + path))
                .timeout(CALL_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
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
    private Round fanOut(int number, String senderToken, int members) throws Exception {
        Round r = new Round(number, members);
        round = r;
        r.start = System.nanoTime();
        HttpResponse<String> response = post("/api/chats/" + bigChat() + "/messages",
                senderToken, Map.of("message", marker + number));
        expect(response, 201, "POST the fan-out message");
        if (!r.all.await(ROUND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            errors.incrementAndGet();
            System.err.printf("round %d: only %d of %d sockets got the message within %s%n",
                    number, members - r.all.getCount(), members, ROUND_TIMEOUT);
        }
        return r;
    }

    private static final class Round {
        final int number;
        final long[] arrivals;
        final AtomicInteger count = new AtomicInteger();
        final CountDownLatch all;
        volatile long start;

        Round(int number, int members) {
            this.number = number;
            this.arrivals = new long[members];
            this.all = new CountDownLatch(members);
        }

        void arrived(long at) {
            int i = count.getAndIncrement();
            if (i < arrivals.length) {
                arrivals[i] = at;
                all.countDown();
            }
        }

        /** Until the last socket that got it: a socket that never got it makes the round count as its timeout. */
        double lastMillis() {
            if (all.getCount() > 0) {
                return ROUND_TIMEOUT.toMillis();
            }
            return (Arrays.stream(arrivals).max().orElse(start) - start) / 1e6;
        }

        double medianMillis() {
            long[] sorted = Arrays.copyOf(arrivals, Math.min(count.get(), arrivals.length));
            Arrays.sort(sorted);
            return sorted.length == 0 ? 0 : (sorted[sorted.length / 2] - start) / 1e6;
        }
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
            Round r = round;
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

    // ---------------------------------------------------------------- the server's side

    private record Memory(OptionalLong rssBytes, OptionalLong heapBytes) {
    }

    /** After a full collection, so that garbage of the setup is not counted as the sockets'. */
    private Memory memory() {
        if (options.serverPid().isEmpty()) {
            return new Memory(OptionalLong.empty(), OptionalLong.empty());
        }
        long pid = options.serverPid().get();
        OptionalLong heap = OptionalLong.empty();
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (Files.isExecutable(jcmd)) {
            jcmd(jcmd, pid, "GC.run");
            Matcher used = HEAP_USED.matcher(jcmd(jcmd, pid, "GC.heap_info"));
            if (used.find()) {
                heap = OptionalLong.of(Long.parseLong(used.group(1)) * 1024);
            }
        }
        OptionalLong rss = OptionalLong.empty();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = OptionalLong.of(Long.parseLong(line.replaceAll("\\D", "")) * 1024);
                }
            }
        } catch (IOException e) {
            System.err.println("cannot read the server's memory: " + e);
        }
        return new Memory(rss, heap);
    }

    /**
     * The server's CPU time so far (user and system, from {@code /proc/<pid>/stat}): what a connect
     * costs the server whatever else the machine is busy with, where the rate depends on that too.
     */
    private OptionalLong serverCpuMillis() {
        if (options.serverPid().isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + options.serverPid().get() + "/stat"));
            // Fields after the command name, which is in parentheses and may hold spaces.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return OptionalLong.of(ticks * 1000 / CLOCK_TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    private static long clientCpuMillis() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(0L);
    }

    private static String jcmd(Path jcmd, long pid, String command) {
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** What the server itself counts as open, from {@code /metrics}: proof the sockets are the server's too. */
    private OptionalLong liveSessions() {
        try {
            HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(options.url() + "/metrics"))
                    .timeout(CALL_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = LIVE_SESSIONS.matcher(metrics.body());
            return m.find() ? OptionalLong.of((long) Double.parseDouble(m.group(1))) : OptionalLong.empty();
        } catch (IOException e) {
            return OptionalLong.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
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

    private Map<String, Object> result(int opened, long begin, long[] done, Memory before, Memory after,
                                       OptionalLong sessions, List<Double> lastOf, List<Double> medianOf) {
        int n = options.sockets();
        int last = Math.max(FIRST, n / 10);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("sockets", n);
        json.put("opened", opened);
        json.put("serverLiveSessions", sessions.isPresent() ? sessions.getAsLong() : null);
        json.put("chatMembers", options.chatMembers());
        json.put("groupSize", options.groupSize());
        json.put("warmupSockets", options.warmupSockets());
        json.put("connectsPerSecondFirst100", opened >= FIRST ? rate(FIRST, done[FIRST - 1] - begin) : null);
        json.put("lastStretchSockets", last);
        json.put("connectsPerSecondLast", opened == n ? rate(last, done[n - 1] - done[n - 1 - last]) : null);
        json.put("connectsPerSecondOverall", opened > 0 ? rate(opened, done[opened - 1] - begin) : null);
        List<Map<String, Object>> stretches = new ArrayList<>();
        int step = Math.max(FIRST, n / 10);
        for (int from = 0; from + step <= opened; from += step) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("from", from);
            s.put("to", from + step);
            s.put("connectsPerSecond", rate(step, done[from + step - 1] - (from == 0 ? begin : done[from - 1])));
            stretches.add(s);
        }
        json.put("stretches", stretches);
        json.put("rssBytesBefore", orNull(before.rssBytes()));
        json.put("rssBytesAfter", orNull(after.rssBytes()));
        json.put("rssBytesPerIdleSocket", perSocket(before.rssBytes(), after.rssBytes(), opened));
        json.put("heapBytesBefore", orNull(before.heapBytes()));
        json.put("heapBytesAfter", orNull(after.heapBytes()));
        json.put("heapBytesPerIdleSocket", perSocket(before.heapBytes(), after.heapBytes(), opened));
        json.put("lastOfChatMillis", lastOf.isEmpty() ? null : round2(median(lastOf)));
        json.put("lastOfChatMillisMax", lastOf.isEmpty() ? null : round2(lastOf.stream().mapToDouble(d -> d).max().orElse(0)));
        json.put("lastOfChatMillisRounds", lastOf.stream().map(ConnectionsBenchmark::round2).toList());
        json.put("medianOfChatMillis", medianOf.isEmpty() ? null : round2(median(medianOf)));
        json.put("errors", errors.get());
        return json;
    }

    private static double rate(int count, long nanos) {
        return Math.round(count * 1e10 / Math.max(1, nanos)) / 10.0;
    }

    private static Object perSocket(OptionalLong before, OptionalLong after, int sockets) {
        return before.isPresent() && after.isPresent() && sockets > 0
                ? (after.getAsLong() - before.getAsLong()) / sockets : null;
    }

    private static Object orNull(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(d -> d).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    private static double round2(double d) {
        return Math.round(d * 100) / 100.0;
    }

    static String summary(Map<String, Object> r) {
        String row = "%-34s %s%n";
        StringBuilder out = new StringBuilder();
        out.append(String.format(row, "sockets opened", r.get("opened") + " of " + r.get("sockets")
                + " (the server counts " + r.get("serverLiveSessions") + ")"));
        out.append(String.format(row, "connects/s, first 100", r.get("connectsPerSecondFirst100")));
        out.append(String.format(row, "connects/s, last " + r.get("lastStretchSockets"), r.get("connectsPerSecondLast")));
        out.append(String.format(row, "connects/s, overall", r.get("connectsPerSecondOverall")));
        Object first = r.get("connectsPerSecondFirst100");
        Object last = r.get("connectsPerSecondLast");
        if (first instanceof Double f && last instanceof Double l) {
            out.append(String.format(row, "last / first", String.format("%.2f (target >= 0.80, and >= 500/s)", l / f)));
        }
        out.append(String.format(row, "CPU per connect, server / client",
                r.get("serverCpuMillisPerConnect") + " ms / " + r.get("clientCpuMillisPerConnect") + " ms"));
        out.append(String.format(row, "server RSS per idle socket", kib(r.get("rssBytesPerIdleSocket")) + " (target <= 64 KiB)"));
        out.append(String.format(row, "server heap per idle socket", kib(r.get("heapBytesPerIdleSocket")) + " (after a full GC)"));
        out.append(String.format(row, "last of " + r.get("chatMembers") + " sockets has it",
                r.get("lastOfChatMillis") + " ms median, " + r.get("lastOfChatMillisMax") + " ms worst of "
                        + r.get("lastOfChatMillisRounds") + " (target <= 50 ms)"));
        out.append(String.format(row, "half of them have it", r.get("medianOfChatMillis") + " ms"));
        out.append(String.format(row, "errors", r.get("errors")));
        return out.toString();
    }

    private static String kib(Object bytes) {
        return bytes instanceof Number b ? String.format("%.1f KiB", b.doubleValue() / 1024) : "not measured (no --server-pid)";
    }
}
