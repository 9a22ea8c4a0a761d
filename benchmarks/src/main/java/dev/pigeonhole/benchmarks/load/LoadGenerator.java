package dev.pigeonhole.benchmarks.load;

import static dev.pigeonhole.benchmarks.load.Failures.brief;
import static dev.pigeonhole.benchmarks.load.Failures.oneLine;
import static dev.pigeonhole.benchmarks.load.Failures.setupMessage;

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
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

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

    /** How long after the last send deliveries still count: long enough for a backlog to clear. */
    private static final Duration DRAIN = Duration.ofSeconds(5);

    private final LoadOptions options;
    private final String run = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(0, 6);
    private final String marker = "lg:" + run + ":";
    private final HttpClient http;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final LoadSetup setup;

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
        this.setup = new LoadSetup(options, run, http, threads);
        this.warmupSends = Math.round(LoadResult.seconds(options.warmup()) * options.rate());
        this.totalSends = warmupSends + Math.max(1, Math.round(LoadResult.seconds(options.duration()) * options.rate()));
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
        LoadResult result = generator.drive();
        System.out.print(result.table());
        if (options.out().isPresent()) {
            try {
                Files.writeString(options.out().get(),
                        ServerApi.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result.json()) + "\n");
            } catch (IOException e) {
                System.err.println("cannot write " + options.out().get() + ": " + oneLine(e));
                System.exit(1);
            }
        }
        // The HttpClient's selector thread is not a daemon on every JDK; leave deliberately.
        System.exit(0);
    }

    // ---------------------------------------------------------------- setup

    void setUp() throws Exception {
        setup.signIn(tokens);
        setup.createChats(tokens);
        setup.openSockets(tokens, u -> new Listener(setup.user(u)), sockets);
        System.err.printf("ready: %d users in %d chats on %s, run %s (scenario %s)%n", options.users(), options.chats(),
                options.url(), run, options.scenario());
    }

    // ---------------------------------------------------------------- the run

    LoadResult drive() {
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
        return new LoadResult(options, sent.get(), delivered.get(), expected.get(), errors.get(), warmupErrors.get(),
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
            HttpRequest request = HttpRequest.newBuilder(URI.create(options.url() + "/api/chats/" + setup.chat(chat) + "/messages"))
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

    private static String micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? "-" : String.format("%.2fms", h.getValueAtPercentile(percentile) / 1000.0);
    }
}
