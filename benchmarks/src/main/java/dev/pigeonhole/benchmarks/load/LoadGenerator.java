package dev.pigeonhole.benchmarks.load;

import dev.pigeonhole.benchmarks.cli.CommandLines;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import tools.jackson.databind.json.JsonMapper;

/**
 * End-to-end load on a running server: users sign in, share chats, hold one live socket each,
 * and send at a fixed rate; the time from when each send was due to its arrival on every member's
 * socket is recorded.
 *
 * <p>Sends are paced by the clock, not by replies (an open model): a slow server then shows up
 * as latency and a backlog instead of quietly lowering the rate it is asked to carry. Each
 * latency counts from the send's scheduled time ({@link SendSchedule}), not from when a thread
 * got round to its HTTP call, so a send held up behind a stalled server or a late pacer carries
 * its wait into the percentiles rather than hiding it (no coordinated omission). How late the
 * calls started is reported beside them ({@code sendStartLagMicros}): if that is large, the
 * generator, not the server, fell behind. A message never delivered within the drain after the
 * last send is in no percentile; it shows as delivered below expected.
 *
 * <p>A message is recognised by its text ({@code lg:<run>:<seq>}), not by the id the send
 * returns, because the push regularly arrives before the HTTP answer does. The text carries a
 * sequence number rather than a timestamp so the start time stays in this process and nothing
 * depends on clocks agreeing.
 *
 * <p>Besides each delivery, each message's arrival on the last of its chat's sockets is recorded:
 * the time a chat of many open sockets takes to hear a message, which is what the fan-out
 * scenario ({@code --scenario fanout}: every socket in one chat) is for.
 */
public final class LoadGenerator {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(15);
    /** How long after the last send deliveries still count: long enough for a backlog to clear. */
    private static final Duration DRAIN = Duration.ofSeconds(5);

    private final LoadOptions options;
    private final String run = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(0, 6);
    private final String marker = "lg:" + run + ":";
    private final HttpClient http;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    private final long warmupSends;
    private final long totalSends;
    /** When each send is due, set when the run starts; every latency is measured from it. */
    private volatile SendSchedule schedule;

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong issued = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong expected = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong warmupErrors = new AtomicLong();
    private final AtomicBoolean closing = new AtomicBoolean();

    private final List<String> tokens = new ArrayList<>();
    private final List<WebSocket> sockets = new ArrayList<>();

    LoadGenerator(LoadOptions options) {
        this.options = options;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .executor(threads)
                .build();
        this.warmupSends = Math.round(seconds(options.warmup()) * options.rate());
        this.totalSends = warmupSends + Math.max(1, Math.round(seconds(options.duration()) * options.rate()));
        if (totalSends > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("--rate times --duration is too many sends for one run");
        }
    }

    public static void main(String[] args) {
        LoadOptions.Flags flags = new LoadOptions.Flags();
        LoadOptions options = CommandLines.parseOrExit(flags, args, flags::options);
        LoadGenerator generator = null;
        try {
            generator = new LoadGenerator(options);
            generator.setUp();
        } catch (Exception e) {
            System.err.println("setup failed: " + setupMessage(e));
            if (generator != null) {
                generator.closeSockets();
            }
            System.exit(1);
            return;
        }
        Result result = generator.drive();
        System.out.print(result.table());
        if (options.out().isPresent()) {
            try {
                Files.writeString(options.out().get(),
                        JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result.json()) + "\n");
            } catch (IOException e) {
                System.err.println("cannot write " + options.out().get() + ": " + oneLine(e));
                System.exit(1);
            }
        }
        // The HttpClient's selector thread is not a daemon on every JDK; leave deliberately.
        System.exit(0);
    }

    // ---------------------------------------------------------------- setup

    private String user(int i) {
        return "lg-" + run + "-u" + i;
    }

    private String chat(int c) {
        return "lg-" + run + "-c" + c;
    }

    void setUp() throws Exception {
        int users = options.users();
        List<Future<String>> signIns = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            String name = user(i);
            signIns.add(threads.submit(() -> signIn(name)));
        }
        for (Future<String> f : signIns) {
            tokens.add(f.get(SETUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        }
        List<Future<?>> creates = new ArrayList<>();
        for (int c = 0; c < options.chats(); c++) {
            int chat = c;
            creates.add(threads.submit(() -> {
                createChat(chat);
                return null;
            }));
        }
        for (Future<?> f : creates) {
            f.get(SETUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        List<Future<WebSocket>> opens = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            int u = i;
            opens.add(threads.submit(() -> openSocket(u)));
        }
        for (Future<WebSocket> f : opens) {
            sockets.add(f.get(SETUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        }
        System.err.printf("ready: %d users in %d chats on %s, run %s (scenario %s)%n", users, options.chats(), options.url(),
                run, options.scenario());
    }

    private String signIn(String name) throws Exception {
        HttpResponse<String> response;
        try {
            response = post("/api/session", null, Map.of("user", name));
        } catch (IOException e) {
            throw new SetupFailure("cannot reach " + options.url() + ": " + oneLine(e));
        }
        if (response.statusCode() != 200) {
            throw new SetupFailure("POST /api/session answered " + response.statusCode() + ": " + brief(response.body()));
        }
        return JSON.readTree(response.body()).path("token").asString();
    }

    /** The lowest-numbered member creates the chat and names the others. */
    private void createChat(int c) throws Exception {
        List<String> others = new ArrayList<>();
        for (int u = c + options.chats(); u < options.users(); u += options.chats()) {
            others.add(user(u));
        }
        Map<String, Object> body = Map.of("chatId", chat(c), "members", others, "message", "load run " + run);
        HttpResponse<String> response = post("/api/chats", tokens.get(c), body);
        if (response.statusCode() != 201) {
            throw new SetupFailure("POST /api/chats answered " + response.statusCode() + ": " + brief(response.body()));
        }
    }

    private WebSocket openSocket(int u) throws Exception {
        String base = options.url().toString().replaceFirst("^http", "ws");
        URI live = URI.create(base + "/api/live?token=" + tokens.get(u));
        return http.newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .buildAsync(live, new Listener(user(u)))
                .get(SETUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    private HttpResponse<String> post(String path, String token, Object body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(options.url() + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    // ---------------------------------------------------------------- the run

    Result drive() {
        long interval = Math.round(1e9 / options.rate());
        long begin = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        SendSchedule schedule = new SendSchedule(begin, interval, warmupSends, totalSends);
        this.schedule = schedule;
        long measuredFrom = schedule.measuredFrom();

        Thread progress = Thread.ofPlatform().daemon().name("load-progress").start(() -> {
            long lastIssued = 0;
            long lastTick = System.nanoTime();
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                long now = System.nanoTime();
                long nowIssued = issued.get();
                double rate = (nowIssued - lastIssued) * 1e9 / (now - lastTick);
                lastIssued = nowIssued;
                lastTick = now;
                Histogram soFar = schedule.latency();
                String phase = now < measuredFrom ? "warmup" : "run";
                System.err.printf("%-6s t=%5.1fs sent=%d delivered=%d/%d rate=%.1f/s p50=%s p99=%s errors=%d (warm-up %d)%n",
                        phase, (now - begin) / 1e9, sent.get(), delivered.get(), expected.get(), rate,
                        micros(soFar, 50), micros(soFar, 99), errors.get(), warmupErrors.get());
            }
        });

        // Paced on a platform thread: a virtual thread's park can be late by a carrier's whole
        // time slice, and the pacer is the one thread whose lateness skews the offered load.
        Thread pacer = Thread.ofPlatform().name("load-pacer").start(() ->
                schedule.pace(System::nanoTime, LockSupport::parkNanos, seq -> {
                    threads.execute(() -> send(seq));
                    issued.incrementAndGet();
                }));
        try {
            pacer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long sendingEnded = System.nanoTime();
        // The last send opens a slot of its own: without it N sends over N slots read as N/(N-1) the rate.
        double window = (sendingEnded - measuredFrom + interval) / 1e9;

        long drainUntil = System.nanoTime() + DRAIN.toNanos();
        while (System.nanoTime() < drainUntil
                && (inFlight() > 0 || delivered.get() < expected.get())) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        closeSockets();
        progress.interrupt();
        return new Result(options, sent.get(), delivered.get(), expected.get(), errors.get(), warmupErrors.get(),
                window, schedule.latency(), schedule.lastSocket(), schedule.startLag());
    }

    private long inFlight() {
        return issued.get() - completed.get();
    }

    private final AtomicLong completed = new AtomicLong();

    private void send(long seq) {
        int sender = (int) (seq % options.users());
        int chat = options.chatOf(sender);
        boolean measured = seq >= warmupSends;
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(options.url() + "/api/chats/" + chat(chat) + "/messages"))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + tokens.get(sender))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"message\":\"" + marker + seq + "\"}"))
                    .build();
            schedule.started(seq, System.nanoTime());
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 201) {
                if (measured) {
                    sent.incrementAndGet();
                    expected.addAndGet(options.membersOf(chat));
                }
            } else {
                failed(measured);
                reportError("send answered " + response.statusCode() + ": " + brief(response.body()));
            }
        } catch (Exception e) {
            failed(measured);
            reportError("send failed: " + oneLine(e));
        } finally {
            completed.incrementAndGet();
        }
    }

    /** Warm-up failures are shown but not counted: the result speaks for the measured window only. */
    private void failed(boolean measured) {
        (measured ? errors : warmupErrors).incrementAndGet();
    }

    private void received(String text) {
        long now = System.nanoTime();
        // Found by its marker, not by parsing the JSON: with a hundred sockets this runs ten
        // thousand times a second on the cores the server uses too, and the marker (this run's,
        // in a message's text, which JSON leaves as it is) only ever comes in a message event.
        // Other runs' and the chat-creation messages come as catch-up; they are not ours to time.
        int at = text.indexOf(marker);
        if (at < 0) {
            if (!text.startsWith("{")) {
                errors.incrementAndGet();
                reportError("unreadable event: " + brief(text));
            }
            return;
        }
        int from = at + marker.length();
        int to = from;
        while (to < text.length() && Character.isDigit(text.charAt(to))) {
            to++;
        }
        if (to == from || to >= text.length() || text.charAt(to) != '"') {
            return;
        }
        long seq;
        try {
            seq = Long.parseLong(text, from, to, 10);
        } catch (NumberFormatException e) {
            return;
        }
        SendSchedule schedule = this.schedule;
        int sender = (int) (seq % options.users());
        if (schedule != null && schedule.arrived(seq, now, options.membersOf(options.chatOf(sender)))) {
            delivered.incrementAndGet();
        }
    }

    private void closeSockets() {
        closing.set(true);
        for (WebSocket socket : sockets) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").orTimeout(2, TimeUnit.SECONDS)
                    .whenComplete((ws, failure) -> socket.abort());
        }
    }

    private final AtomicLong reported = new AtomicLong();

    /** The first few failures in full, then only the count: a dead server must not flood stderr. */
    private void reportError(String message) {
        if (reported.incrementAndGet() <= 10) {
            System.err.println("error: " + message);
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final String user;
        private final StringBuilder partial = new StringBuilder();

        Listener(String user) {
            this.user = user;
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                received(text);
            }
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            if (!closing.get()) {
                errors.incrementAndGet();
                reportError("socket of " + user + " closed by the server: " + status + " " + reason);
            }
            return null;
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            if (!closing.get()) {
                errors.incrementAndGet();
                reportError("socket of " + user + " failed: " + oneLine(error));
            }
        }
    }

    // ---------------------------------------------------------------- result

    record Result(LoadOptions options, long sent, long delivered, long expected, long errors,
                  long warmupErrors, double windowSeconds, Histogram latency, Histogram lastSocket,
                  Histogram startLag) {

        /** Field order is the report writer's contract; keep it. */
        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("label", options.label());
            json.put("users", options.users());
            json.put("chats", options.chats());
            json.put("rateTarget", wholeIfWhole(options.rate()));
            json.put("durationSeconds", wholeIfWhole(seconds(options.duration())));
            json.put("sent", sent);
            json.put("delivered", delivered);
            json.put("expectedDeliveries", expected);
            json.put("sendsPerSecond", round1(sent / windowSeconds));
            json.put("deliveriesPerSecond", round1(delivered / windowSeconds));
            json.put("errors", errors);
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("p50", value(50));
            summary.put("p90", value(90));
            summary.put("p99", value(99));
            summary.put("p999", value(99.9));
            summary.put("max", latency.getTotalCount() == 0 ? 0 : latency.getMaxValue());
            json.put("latencyMicros", summary);
            json.put("percentiles", distribution());
            // Added after the fields above, which readers already expect in their order.
            json.put("scenario", options.scenario());
            Map<String, Object> last = new LinkedHashMap<>();
            last.put("messages", lastSocket.getTotalCount());
            last.put("p50", value(lastSocket, 50));
            last.put("p90", value(lastSocket, 90));
            last.put("p99", value(lastSocket, 99));
            last.put("p999", value(lastSocket, 99.9));
            last.put("max", lastSocket.getTotalCount() == 0 ? 0 : lastSocket.getMaxValue());
            json.put("lastSocketLatencyMicros", last);
            // Every latency above counts from its send's due time; this is how much of it the
            // generator itself added by starting the HTTP call late.
            Map<String, Object> lag = new LinkedHashMap<>();
            lag.put("sends", startLag.getTotalCount());
            lag.put("p50", value(startLag, 50));
            lag.put("p99", value(startLag, 99));
            lag.put("max", startLag.getTotalCount() == 0 ? 0 : startLag.getMaxValue());
            json.put("sendStartLagMicros", lag);
            return json;
        }

        private long value(double percentile) {
            return value(latency, percentile);
        }

        private static long value(Histogram histogram, double percentile) {
            return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile);
        }

        /**
         * HdrHistogram's own percentile walk, as coarse as keeps it within 60 points: each halving
         * of the remaining tail gets the same number of ticks, so the tail a chart is read for is
         * as well resolved as the median.
         */
        private List<Map<String, Object>> distribution() {
            List<Map<String, Object>> points = new ArrayList<>();
            if (latency.getTotalCount() == 0) {
                return points;
            }
            for (int ticks = 5; ticks >= 1; ticks--) {
                points.clear();
                for (HistogramIterationValue v : latency.percentiles(ticks)) {
                    Map<String, Object> point = new LinkedHashMap<>();
                    point.put("percentile", Math.round(v.getPercentileLevelIteratedTo() * 1000) / 1000.0);
                    point.put("micros", v.getValueIteratedTo());
                    points.add(point);
                }
                if (points.size() <= 60) {
                    break;
                }
            }
            return points;
        }

        String table() {
            String row = "%-22s %s%n";
            StringBuilder out = new StringBuilder();
            out.append(String.format(row, "label", options.label()));
            out.append(String.format(row, "users / chats", options.users() + " / " + options.chats()));
            out.append(String.format(row, "rate target", wholeIfWhole(options.rate()) + " msg/s"));
            out.append(String.format(row, "measured", String.format("%.1f s", windowSeconds)));
            out.append(String.format(row, "sent", sent + String.format(" (%.1f/s)", sent / windowSeconds)));
            out.append(String.format(row, "delivered / expected", delivered + " / " + expected
                    + String.format(" (%.1f/s, %.2f%%)", delivered / windowSeconds,
                    expected == 0 ? 0 : 100.0 * delivered / expected)));
            out.append(String.format(row, "errors", errors + (warmupErrors > 0 ? " (and " + warmupErrors + " in warm-up)" : "")));
            out.append(String.format(row, "latency p50", ms(value(50))));
            out.append(String.format(row, "latency p90", ms(value(90))));
            out.append(String.format(row, "latency p99", ms(value(99))));
            out.append(String.format(row, "latency p99.9", ms(value(99.9))));
            out.append(String.format(row, "latency max", ms(latency.getTotalCount() == 0 ? 0 : latency.getMaxValue())));
            out.append(String.format(row, "scenario", options.scenario()));
            out.append(String.format(row, "last socket messages", lastSocket.getTotalCount()
                    + " (reached every socket of their chat)"));
            out.append(String.format(row, "last socket p50", ms(value(lastSocket, 50))));
            out.append(String.format(row, "last socket p99", ms(value(lastSocket, 99))));
            out.append(String.format(row, "last socket max", ms(lastSocket.getTotalCount() == 0 ? 0 : lastSocket.getMaxValue())));
            out.append(String.format(row, "send start lag p99", ms(value(startLag, 99)) + " (behind the due time"
                    + " every latency counts from)"));
            return out.toString();
        }

        private static String ms(long micros) {
            return String.format("%.3f ms", micros / 1000.0);
        }
    }

    // ---------------------------------------------------------------- small things

    /** A setup step that failed in a way already worth one line as it stands. */
    private static final class SetupFailure extends Exception {
        SetupFailure(String message) {
            super(message, null, false, false);
        }
    }

    private static String setupMessage(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SetupFailure) {
                return t.getMessage();
            }
        }
        return oneLine(e);
    }

    private static String micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? "-" : String.format("%.2fms", h.getValueAtPercentile(percentile) / 1000.0);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    private static Number wholeIfWhole(double d) {
        return d == Math.rint(d) ? (Number) (long) d : (Number) d;
    }

    private static double round1(double d) {
        return Double.isFinite(d) ? Math.round(d * 10) / 10.0 : 0;
    }

    private static String brief(String s) {
        String flat = s == null ? "" : s.replaceAll("\\s+", " ");
        return flat.length() > 200 ? flat.substring(0, 200) + "…" : flat;
    }

    /**
     * The exception chain on one line. The HTTP client's own failures are wrappers without a
     * message (ConnectException around ClosedChannelException), so the outermost alone says nothing.
     */
    private static String oneLine(Throwable e) {
        StringBuilder line = new StringBuilder();
        int depth = 0;
        String previous = null;
        for (Throwable t = e; t != null && depth < 4; t = t.getCause(), depth++) {
            if (t instanceof java.util.concurrent.ExecutionException && t.getCause() != null) {
                continue;
            }
            // The client rethrows its own exception wrapped in a copy of itself.
            String here = t.getClass().getName() + ":" + t.getMessage();
            if (here.equals(previous)) {
                continue;
            }
            previous = here;
            if (!line.isEmpty()) {
                line.append(" <- ");
            }
            line.append(t.getClass().getSimpleName());
            if (t.getMessage() != null) {
                line.append(": ").append(brief(t.getMessage()));
            }
        }
        return line.toString();
    }
}
