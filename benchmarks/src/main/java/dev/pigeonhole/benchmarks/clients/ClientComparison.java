package dev.pigeonhole.benchmarks.clients;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.benchmarks.clients.Measurements.Measure;
import dev.pigeonhole.benchmarks.clients.Measurements.Row;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The Redis clients side by side on one single-node Redis ({@code REDIS_URL}), each through the
 * composition root as the server builds it: in every round each client in turn, the order
 * alternating from round to round ({@link #order}) so that a machine slowing down over the run
 * does not always hurt the same client. Per client and round, in one JVM: its connections at
 * idle, send and pending + acknowledge throughput at 1, 8 and 64 callers, the process's CPU per
 * send and its connections while 64 callers send, then send latency at a fixed offered rate. After
 * the rounds, bytes allocated per operation in one JMH fork per client ({@link AllocationRun}).
 * Everything goes to {@code --out} in the format of {@link Measurements}, which the report reads.
 *
 * <pre>
 * REDIS_URL=redis://127.0.0.1:6379 java -cp benchmarks.jar dev.pigeonhole.benchmarks.clients.ClientComparison \
 *     --out target/results/clients [--clients JEDIS,LETTUCE,REDISSON,GLIDE] [--rounds 3] [--rate 5000] ...
 * </pre>
 *
 * A client without a driver in this build is left out of the whole run, said so, and the others
 * go on; so is a client that fails, for the rest of the run.
 */
@Command(name = "ClientComparison", mixinStandardHelpOptions = true,
        description = "The Redis clients compared on one Redis (REDIS_URL), in alternating rounds.")
public final class ClientComparison implements Callable<Integer> {

    static final int[] CALLERS = {1, 8, 64};

    @Option(names = "--out", required = true, description = "the folder the CSVs go to")
    Path out;
    @Option(names = "--clients", split = ",", defaultValue = "JEDIS,LETTUCE,REDISSON,GLIDE",
            description = "the clients, in round 1's order (default: ${DEFAULT-VALUE})")
    List<RedisClientKind> clients;
    @Option(names = "--rounds", defaultValue = "3", description = "rounds, every client in each")
    int rounds;
    @Option(names = "--seconds", defaultValue = "2", description = "each throughput measure's length")
    double seconds;
    @Option(names = "--warmup-seconds", defaultValue = "2", description = "sends, then catch-ups, before measuring")
    double warmupSeconds;
    @Option(names = "--chats", defaultValue = "10", description = "K: the chats each pending reader catches up in")
    int chats;
    /*
     * About a sixth of the slowest 64-caller send rate measured here (Jedis, about 30 000 a second on
     * 2 busy cores): at half of it a loaded machine already saturated, and the latencies measured
     * the queue; the clients not yet measured need the headroom too.
     */
    @Option(names = "--rate", defaultValue = "5000", description = "the offered send rate of the latency measure, per second")
    int rate;
    @Option(names = "--latency-seconds", defaultValue = "4", description = "the latency measure's length, after 1 s of warm-up")
    double latencySeconds;
    @Option(names = "--cpu-seconds", defaultValue = "3", description = "the CPU and busy-connections measure's length")
    double cpuSeconds;
    @Option(names = "--alloc-iterations", defaultValue = "3", description = "JMH measurement iterations of the allocation run")
    int allocIterations;
    @Option(names = "--alloc-seconds", defaultValue = "1", description = "each JMH iteration's length")
    double allocSeconds;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ClientComparison()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    /**
     * Rounds in pairs, the second the first reversed, so that a machine slowing down steadily
     * costs every client alike over the pair; each pair's order turned on by two from the last, so
     * that over the rounds every client takes every place (turned by one, two clients' third round
     * would repeat their second).
     */
    public static List<RedisClientKind> order(List<RedisClientKind> clients, int round) {
        List<RedisClientKind> order = new ArrayList<>(clients);
        if (order.isEmpty()) {
            return order;
        }
        Collections.rotate(order, -(2 * ((round - 1) / 2)) % order.size());
        if (round % 2 == 0) {
            Collections.reverse(order);
        }
        return order;
    }

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || seconds <= 0 || chats < 1 || rate < 1 || latencySeconds <= 0 || cpuSeconds <= 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "every count and length must be positive");
        }
        Files.createDirectories(out);
        Files.deleteIfExists(out.resolve(Measurements.MEASURES));
        writeSettings();
        Measurements.writeVersions(out, ClientVersions.of(clients));
        List<RedisClientKind> measured = new ArrayList<>(clients.stream().distinct().toList());
        try (Connections connections = new Connections(URI.create(required("REDIS_URL")))) {
            for (int round = 1; round <= rounds; round++) {
                List<RedisClientKind> order = order(measured, round);
                say("round " + round + " of " + rounds + ": " + order);
                for (RedisClientKind client : order) {
                    try {
                        Measurements.append(out, measure(round, client, connections));
                    } catch (UnsupportedOperationException e) {
                        say(client + " left out: " + e.getMessage());
                        measured.remove(client);
                    } catch (Exception e) {
                        say(client + " failed in round " + round + " and is left out from here: " + e);
                        measured.remove(client);
                    }
                }
            }
        }
        if (!measured.isEmpty()) {
            say("bytes per operation: JMH -prof gc, one fork per client and benchmark, K = " + chats);
            try {
                Measurements.append(out, AllocationRun.run(measured, chats, allocIterations,
                        TimeValue.milliseconds(millis(allocSeconds)), out.resolve("alloc.json")));
            } catch (RunnerException e) {
                // JMH refuses to run beside another JMH on this machine unless -Djmh.ignoreLock=true
                say("the allocation run failed, its table stays empty: " + e.getMessage());
                return 1;
            }
        }
        say("wrote " + out.resolve(Measurements.MEASURES));
        return measured.size() == clients.stream().distinct().count() ? 0 : 1;
    }

    private List<Row> measure(int round, RedisClientKind client, Connections connections) throws Exception {
        List<Row> rows = new ArrayList<>();
        long start = System.nanoTime();
        try (ClientRun run = ClientRun.start(client)) {
            rows.add(new Row(round, client, Measure.CONNECTIONS_IDLE, connections.named(run.clientName())));
            run.prepareReaders(CALLERS[CALLERS.length - 1], chats);
            run.send(CALLERS[CALLERS.length - 1], duration(warmupSeconds));
            run.pending(CALLERS[1], duration(warmupSeconds));
            Measure[] sends = {Measure.SEND_OPS_1, Measure.SEND_OPS_8, Measure.SEND_OPS_64};
            Measure[] pendings = {Measure.PENDING_OPS_1, Measure.PENDING_OPS_8, Measure.PENDING_OPS_64};
            for (int i = 0; i < CALLERS.length; i++) {
                rows.add(new Row(round, client, sends[i], run.send(CALLERS[i], duration(seconds)).perSecond()));
            }
            for (int i = 0; i < CALLERS.length; i++) {
                Callers.Done done = run.pending(CALLERS[i], duration(seconds));
                rows.add(new Row(round, client, pendings[i], done.perSecondCounted(CALLERS[i])));
            }
            ClientRun.Busy busy = run.busy(CALLERS[CALLERS.length - 1], duration(cpuSeconds), connections);
            rows.add(new Row(round, client, Measure.CPU_MICROS_PER_OP, busy.cpuMicrosPerOp()));
            rows.add(new Row(round, client, Measure.CONNECTIONS_BUSY, busy.connections()));
            ClientRun.Latency latency = run.latency(rate, Duration.ofSeconds(1), duration(latencySeconds));
            rows.add(new Row(round, client, Measure.LATENCY_P50_MICROS, latency.micros().getValueAtPercentile(50)));
            rows.add(new Row(round, client, Measure.LATENCY_P99_MICROS, latency.micros().getValueAtPercentile(99)));
            rows.add(new Row(round, client, Measure.LATENCY_P999_MICROS, latency.micros().getValueAtPercentile(99.9)));
            rows.add(new Row(round, client, Measure.LATENCY_LATE_START_PERCENT, latency.lateStartPercent()));
        }
        say(String.format(Locale.ROOT, "round %d, %s: %.0f s; %s", round, client, (System.nanoTime() - start) / 1e9,
                summary(rows)));
        return rows;
    }

    private static String summary(List<Row> rows) {
        List<String> parts = new ArrayList<>();
        for (Row row : rows) {
            parts.add(row.measure().name().toLowerCase(Locale.ROOT) + " " + String.format(Locale.ROOT, "%.1f", row.value()));
        }
        return String.join(", ", parts);
    }

    private void writeSettings() throws IOException {
        Properties settings = new Properties();
        settings.setProperty("rounds", Integer.toString(rounds));
        settings.setProperty("clients", String.join(",", clients.stream().map(Enum::name).toList()));
        settings.setProperty("chats", Integer.toString(chats));
        settings.setProperty("rate", Integer.toString(rate));
        settings.setProperty("seconds", Double.toString(seconds));
        settings.setProperty("warmupSeconds", Double.toString(warmupSeconds));
        settings.setProperty("latencySeconds", Double.toString(latencySeconds));
        settings.setProperty("cpuSeconds", Double.toString(cpuSeconds));
        settings.setProperty("allocIterations", Integer.toString(allocIterations));
        settings.setProperty("allocSeconds", Double.toString(allocSeconds));
        try (OutputStream file = Files.newOutputStream(out.resolve(Measurements.SETTINGS))) {
            settings.store(file, "how the client comparison ran");
        }
    }

    private static Duration duration(double seconds) {
        return Duration.ofMillis(millis(seconds));
    }

    private static long millis(double seconds) {
        return Math.round(seconds * 1000);
    }

    private static String required(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(variable + " is not set: benchmarks/run.sh --clients starts a Redis and sets it");
        }
        return value;
    }

    private static void say(String line) {
        System.out.println("[clients] " + line);
    }
}
