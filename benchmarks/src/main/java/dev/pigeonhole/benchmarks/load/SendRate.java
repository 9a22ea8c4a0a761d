package dev.pigeonhole.benchmarks.load;

import dev.pigeonhole.benchmarks.cli.CommandLines;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.json.JsonMapper;
/**
 * The most sends a second a running server carries: C callers post into one chat over HTTP, each
 * sending again as soon as its answer arrives (a closed model, as {@code wrk} drives a server),
 * for a warm-up and then a measured window. Where {@link LoadGenerator} asks for a fixed rate and
 * reports latency under it, this reports the capacity, so that the stores can be compared by it:
 * HTTP sends a second on Redis against the same on memory.
 *
 * <pre>
 * java -cp benchmarks.jar dev.pigeonhole.benchmarks.load.SendRate --url http://127.0.0.1:8080 \
 *   [--callers 16] [--warmup 2] [--duration 8] [--out http-memory.json] [--label memory]
 * </pre>
 * Durations are seconds ({@code 8}) or carry a unit ({@code 8s}, {@code 500ms}). Every send must answer 201; any other answer counts as an error.
 */
public final class SendRate {

    private static final JsonMapper JSON = ServerApi.JSON;
    private static final Duration REQUEST_TIMEOUT = ServerApi.CALL_TIMEOUT;
    /** More callers than this measure the client's own scheduling rather than the server. */
    private static final int MAX_CALLERS = 1024;
    /** Longer windows than this are a mistake in the command line, not a measurement. */
    private static final Duration MAX_WINDOW = Duration.ofHours(1);

    record Options(URI url, int callers, Duration warmup, Duration duration, Optional<Path> out, String label) {
    }

    private final Options options;
    private final HttpClient http;
    private final Recorder latency = new Recorder(3);
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private volatile boolean measuring;
    private volatile boolean stopping;

    private SendRate(Options options, ExecutorService threads) {
        this.options = options;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .executor(threads).build();
    }

    public static void main(String[] args) throws Exception {
        Flags flags = new Flags();
        Options options = CommandLines.parseOrExit(flags, args, flags::options);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Map<String, Object> result = new SendRate(options, threads).run(threads);
            String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result);
            System.out.println(text);
            if (options.out().isPresent()) {
                Files.writeString(options.out().get(), text + "\n");
            }
        } catch (IOException | IllegalStateException e) {
            System.err.println("SendRate: " + e.getMessage());
            System.exit(1);
        }
        // The HttpClient's selector thread is not a daemon on every JDK; leave deliberately.
        System.exit(0);
    }

    private Map<String, Object> run(ExecutorService threads) throws Exception {
        String run = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(0, 6);
        String sender = "sr-" + run + "-a";
        String token = post("/api/session", null, Map.of("user", sender), 200).path("token").asString();
        post("/api/session", null, Map.of("user", "sr-" + run + "-b"), 200);
        String chat = "sr-" + run;
        post("/api/chats", token, Map.of("chatId", chat, "members", List.of("sr-" + run + "-b"), "message", "hi"), 201);
        HttpRequest send = HttpRequest.newBuilder(URI.create(options.url() + "/api/chats/" + chat + "/messages"))
                .timeout(REQUEST_TIMEOUT).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString("{\"message\":\"a message of about the length people type\"}"))
                .build();
        List<Future<?>> callers = new ArrayList<>();
        for (int i = 0; i < options.callers(); i++) {
            callers.add(threads.submit(() -> call(send)));
        }
        Thread.sleep(options.warmup());
        latency.reset();
        sent.set(0);
        errors.set(0);
        measuring = true;
        long start = System.nanoTime();
        Thread.sleep(options.duration());
        measuring = false;
        long sentInWindow = sent.get();
        long errorsInWindow = errors.get();
        double seconds = (System.nanoTime() - start) / 1e9;
        Histogram window = latency.getIntervalHistogram();
        stopping = true;
        for (Future<?> caller : callers) {
            caller.get();
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("label", options.label());
        json.put("callers", options.callers());
        json.put("warmupSeconds", options.warmup().toSeconds());
        json.put("durationSeconds", options.duration().toSeconds());
        json.put("sent", sentInWindow);
        json.put("errors", errorsInWindow);
        json.put("sendsPerSecond", Math.round(sentInWindow / seconds * 10) / 10.0);
        Map<String, Object> summary = new LinkedHashMap<>();
        for (double p : new double[] {50, 90, 99, 99.9}) {
            summary.put(p == 99.9 ? "p999" : "p" + (int) p, window.getTotalCount() == 0 ? 0 : window.getValueAtPercentile(p));
        }
        summary.put("max", window.getTotalCount() == 0 ? 0 : window.getMaxValue());
        json.put("latencyMicros", summary);
        return json;
    }

    /** One caller: send, wait for the answer, send again, until told to stop. */
    private void call(HttpRequest send) {
        while (!stopping) {
            long started = System.nanoTime();
            boolean ok;
            try {
                ok = http.send(send, HttpResponse.BodyHandlers.discarding()).statusCode() == 201;
            } catch (IOException e) {
                ok = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (!measuring) {
                continue;
            }
            if (ok) {
                latency.recordValue(Math.max(1, (System.nanoTime() - started) / 1000));
                sent.incrementAndGet();
            } else {
                errors.incrementAndGet();
            }
        }
    }

    private tools.jackson.databind.JsonNode post(String path, String token, Object body, int expected) throws Exception {
        HttpResponse<String> response = new ServerApi(http, options.url()).post(path, token, body);
        if (response.statusCode() != expected) {
            throw new IllegalStateException("POST " + path + " answered " + response.statusCode() + ": "
                    + response.body().lines().findFirst().orElse(""));
        }
        return JSON.readTree(response.body());
    }

    /** The command line as typed; {@link #options()} checks it. */
    @Command(name = "SendRate", sortOptions = false,
            description = "Callers that send as fast as the server answers: its HTTP send capacity.")
    static final class Flags {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "--url", required = true, description = "the server, http://host:port")
        String url;
        @Option(names = "--callers", defaultValue = "16", description = "callers sending at once, 1 to " + MAX_CALLERS
                + " (default: ${DEFAULT-VALUE})")
        int callers;
        @Option(names = "--warmup", defaultValue = "2s", description = "sends before the measured window, e.g. 2 or 2s (default: ${DEFAULT-VALUE})")
        Duration warmup;
        @Option(names = "--duration", defaultValue = "8s", description = "the measured window, e.g. 8 or 8s (default: ${DEFAULT-VALUE})")
        Duration duration;
        @Option(names = "--out", description = "where the JSON result goes (default: none)")
        Path out;
        @Option(names = "--label", defaultValue = "unnamed", description = "the store's name in the result (default: ${DEFAULT-VALUE})")
        String label;

        Options options() {
            if (callers < 1 || callers > MAX_CALLERS) {
                throw new IllegalArgumentException("--callers must be a whole number from 1 to " + MAX_CALLERS + ": " + callers);
            }
            if (warmup.isNegative() || warmup.compareTo(MAX_WINDOW) > 0) {
                throw new IllegalArgumentException("--warmup must be from 0 to an hour: " + warmup);
            }
            if (!duration.isPositive() || duration.compareTo(MAX_WINDOW) > 0) {
                throw new IllegalArgumentException("--duration must be more than 0 and at most an hour: " + duration);
            }
            URI uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            if (!"http".equals(uri.getScheme())) {
                throw new IllegalArgumentException("--url http://host:port is required");
            }
            return new Options(uri, callers, warmup, duration, Optional.ofNullable(out), label);
        }
    }

    /** The command line checked; IllegalArgumentException when it is wrong. */
    static Options parse(String... args) {
        Flags flags = new Flags();
        return CommandLines.parse(flags, args, flags::options);
    }
}
