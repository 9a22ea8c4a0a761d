package dev.pigeonhole.benchmarks.durability;

import dev.pigeonhole.adapter.redis.Durability;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.benchmarks.clients.ClientComparison;
import dev.pigeonhole.benchmarks.durability.Samples.Row;
import dev.pigeonhole.benchmarks.durability.Samples.Side;
import dev.pigeonhole.benchmarks.report.DurabilitySection;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What durability costs a send: the Redis adapter's own send port ({@code RedisChats.send}) on a
 * primary with a replica ({@code REDIS_URL}; {@code benchmarks/run.sh --durability} starts both on
 * loopback), {@link Durability#NONE} against waiting for {@code --replicas} replicas. In every
 * round each client in turn ({@link ClientComparison#order}), a fresh driver each time: a
 * warm-up of both sides, the loopback round trip, then for each number of callers the two sides
 * back to back, which goes first alternating from round to round (none, durable; durable, none;
 * ...), then the round trip again. Each side is a fixed number of sends. The rows go to
 * {@code --out} ({@link Samples}); the section the report makes of them is printed at the end.
 *
 * <pre>
 * REDIS_URL=redis://127.0.0.1:6379 java -cp benchmarks.jar dev.pigeonhole.benchmarks.durability.DurableSends \
 *     --out target/results/durability [--clients JEDIS,LETTUCE] [--rounds 3] [--sends 2000] ...
 * </pre>
 */
@Command(name = "DurableSends", mixinStandardHelpOptions = true,
        description = "Sends without and with a wait for replicas, on a primary (REDIS_URL) that has them.")
public final class DurableSends implements Callable<Integer> {

    @Option(names = "--out", required = true, description = "the folder the CSV goes to")
    Path out;
    @Option(names = "--clients", split = ",", defaultValue = "JEDIS,LETTUCE,REDISSON,GLIDE",
            description = "the clients, in round 1's order (default: ${DEFAULT-VALUE})")
    List<RedisClientKind> clients;
    @Option(names = "--rounds", defaultValue = "3", description = "rounds, every client in each (default: ${DEFAULT-VALUE})")
    int rounds;
    @Option(names = "--callers", split = ",", defaultValue = "1,16",
            description = "the numbers of callers measured (default: ${DEFAULT-VALUE})")
    List<Integer> callers;
    @Option(names = "--sends", defaultValue = "2000", description = "sends per side and number of callers (default: ${DEFAULT-VALUE})")
    long sends;
    @Option(names = "--warmup-sends", defaultValue = "1000",
            description = "untimed sends per side and number of callers, before a client's round (default: ${DEFAULT-VALUE})")
    long warmupSends;
    @Option(names = "--replicas", defaultValue = "1", description = "the replicas the durable side waits for (default: ${DEFAULT-VALUE})")
    int replicas;
    @Option(names = "--timeout-ms", defaultValue = "1000", description = "how long it waits for them (default: ${DEFAULT-VALUE})")
    long timeoutMillis;
    @Option(names = "--pings", defaultValue = "5000", description = "PINGs of each round-trip measure (default: ${DEFAULT-VALUE})")
    int pings;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new DurableSends()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    /** The durable side's setting, refused as the adapter refuses it (1 ms to 60 s, at least one replica). */
    Durability durability() {
        if (replicas < 1) {
            throw new IllegalArgumentException("--replicas must be at least 1: with none both sides are the same");
        }
        return new Durability(replicas, Duration.ofMillis(timeoutMillis));
    }

    /** Which side goes first in {@code round}: none in the odd rounds, durable in the even ones. */
    static List<Side> sides(int round) {
        return round % 2 == 1 ? List.of(Side.NONE, Side.DURABLE) : List.of(Side.DURABLE, Side.NONE);
    }

    @Override
    public Integer call() throws Exception {
        CommandLine line = new CommandLine(this);
        if (rounds < 1 || sends < 1 || warmupSends < 0 || pings < 1 || callers.isEmpty()
                || callers.stream().anyMatch(n -> n < 1)) {
            throw new CommandLine.ParameterException(line, "every count must be positive");
        }
        Durability durability;
        try {
            durability = durability();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(line, e.getMessage());
        }
        String url = System.getenv("REDIS_URL");
        if (url == null || url.isBlank()) {
            say("REDIS_URL is not set: benchmarks/run.sh --durability starts a primary and its replica and sets it");
            return 2;
        }
        Files.createDirectories(out);
        Files.deleteIfExists(out.resolve(Samples.MEASURES));
        List<RedisClientKind> measured = new ArrayList<>(clients.stream().distinct().toList());
        String loadBefore = machineLoad();
        long start = System.nanoTime();
        try (Primary primary = new Primary(URI.create(url))) {
            int online = primary.onlineReplicas();
            if (online < replicas) {
                say("the primary at " + url + " has " + online + " replica(s) online, fewer than the " + replicas
                        + " asked: every durable send would be refused (benchmarks/run.sh --durability starts one)");
                return 2;
            }
            say("primary " + url + " (Redis " + primary.redisVersion() + "), " + online + " replica(s) online; durable: "
                    + durability + "; machine load " + loadBefore);
            for (int round = 1; round <= rounds; round++) {
                List<RedisClientKind> order = ClientComparison.order(measured, round);
                say("round " + round + " of " + rounds + ": " + order + ", sides " + sides(round));
                for (RedisClientKind client : order) {
                    try {
                        Samples.append(out, measure(round, client, url, durability, primary));
                    } catch (Exception | LinkageError e) {
                        // A client whose driver cannot start here (GLIDE's native library) is left out; the others go on.
                        say(client + " failed in round " + round + " and is left out from here: " + e);
                        measured.remove(client);
                    }
                }
            }
            writeSettings(primary.redisVersion(), durability, loadBefore, machineLoad(), (System.nanoTime() - start) / 1e9);
        }
        if (Files.exists(out.resolve(Samples.MEASURES))) {
            System.out.println();
            System.out.print(DurabilitySection.markdown(out));
        }
        return measured.size() == clients.stream().distinct().count() ? 0 : 1;
    }

    private List<Row> measure(int round, RedisClientKind client, String url, Durability durability, Primary primary)
            throws Exception {
        List<Row> rows = new ArrayList<>();
        try (SendRun run = SendRun.start(client, url, durability)) {
            for (int n : callers) {
                for (Side side : Side.values()) {
                    run.sends(side, n, warmupSends);
                }
            }
            double before = primary.roundTripMicros(pings);
            List<Taken> taken = new ArrayList<>();
            for (int n : callers) {
                for (Side side : sides(round)) {
                    taken.add(new Taken(n, side, run.sends(side, n, sends)));
                }
            }
            double after = primary.roundTripMicros(pings);
            for (Taken t : taken) {
                Row row = new Row(round, client, t.callers(), t.side(), t.measured().sends(),
                        t.measured().wallNanos() / 1e9, t.measured().nanos().getValueAtPercentile(50) / 1e3,
                        t.measured().nanos().getValueAtPercentile(99) / 1e3, before, after);
                rows.add(row);
                say(String.format(Locale.ROOT, "round %d, %-8s %2d caller(s), %-7s %,9.0f sends/s, p50 %7.1f µs, "
                                + "p99 %8.1f µs (PING %.1f µs before, %.1f after)", round, client, row.callers(), row.side(),
                        row.sendsPerSecond(), row.p50Micros(), row.p99Micros(), before, after));
            }
        }
        return rows;
    }

    /** One side's measure, until the round trip after the round is known. */
    private record Taken(int callers, Side side, SendRun.Measured measured) {
    }

    private void writeSettings(String redisVersion, Durability durability, String loadBefore, String loadAfter,
                               double seconds) throws IOException {
        Properties settings = new Properties();
        settings.setProperty("date", DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
                .format(Instant.now().atOffset(ZoneOffset.UTC)));
        settings.setProperty("redisVersion", redisVersion);
        settings.setProperty("durability", durability.toString());
        settings.setProperty("rounds", Integer.toString(rounds));
        settings.setProperty("clients", String.join(",", clients.stream().map(Enum::name).toList()));
        settings.setProperty("callers", String.join(",", callers.stream().map(String::valueOf).toList()));
        settings.setProperty("sends", Long.toString(sends));
        settings.setProperty("warmupSends", Long.toString(warmupSends));
        settings.setProperty("pings", Integer.toString(pings));
        settings.setProperty("loadBefore", loadBefore);
        settings.setProperty("loadAfter", loadAfter);
        settings.setProperty("seconds", String.format(Locale.ROOT, "%.0f", seconds));
        try (OutputStream file = Files.newOutputStream(out.resolve(Samples.SETTINGS))) {
            settings.store(file, "how the durable sends were measured");
        }
    }

    private static void say(String line) {
        System.out.println("[durability] " + line);
    }

    /** The machine's load average (1, 5, 15 min), as run.sh notes it: on a shared machine the figures are read with it. */
    private static String machineLoad() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
