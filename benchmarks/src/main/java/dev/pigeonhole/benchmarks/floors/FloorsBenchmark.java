package dev.pigeonhole.benchmarks.floors;

import dev.pigeonhole.benchmarks.cli.CommandLines;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.jedis.JedisDriver;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.ObjectMapper;

/**
 * What each operation of the Redis adapter costs inside Redis, beside its floor: a function of
 * the {@code pigeonhole_floors} library that takes the operation's very keys and arguments but
 * runs only the commands the operation cannot do without. Both are measured in the same run on
 * the same Redis, in rounds, each round measuring every operation and its floor back to back:
 *
 * <ol>
 *   <li>Redis time per operation: one caller, a fixed number of operations, the function commands'
 *       time in {@code INFO commandstats} before and after. The operation runs through the
 *       adapter's port classes; its floor replays the very calls it recorded, through FCALL.
 *   <li>Capacity: redis-benchmark, many clients pipelined, repeating the recorded call as a
 *       command line (FCALL or FCALL_RO), then its floor's (FCALL).
 * </ol>
 *
 * Which side goes first alternates from round to round. The result is one JSON file, which the
 * report turns into a table ({@code FloorsSection}); redis-benchmark's own output is kept beside it.
 *
 * <pre>
 * REDIS_URL=redis://127.0.0.1:6379 java -cp benchmarks.jar dev.pigeonhole.benchmarks.floors.FloorsBenchmark \
 *   --out target/results/floors.json [--rounds 3] [--calls 10000] [--capacity-seconds 0.5] [--only REGEX]
 * </pre>
 */
public final class FloorsBenchmark {

    /** What the file holds: how the run was made, then each operation round by round. */
    record Result(String redisVersion, String scriptCommand, String capacityOptions, int rounds, int calls,
                  double durationSeconds, List<Operation> operations) {
    }

    /**
     * One operation. Times are Redis microseconds and rates calls a second per operation, or per
     * chat when one operation covers several ({@code chatsPerOperation}).
     */
    record Operation(String name, int chatsPerOperation, int operations, double callsPerOperation, String floor,
                     int capacityRequests, String capacitySkipped, List<RoundSample> rounds) {
    }

    /** One round's figures; a rate is null where capacity was not measured. */
    record RoundSample(int round, double oursMicros, double floorMicros, Double oursPerSecond, Double floorPerSecond) {
    }

    record Options(Path out, int rounds, int calls, double capacitySeconds, Pattern only) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int CLIENTS = 50;
    private static final int PIPELINE = 16;

    private FloorsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Flags flags = new Flags();
        Options options = CommandLines.parseOrExit(flags, args, flags::options);
        String url = System.getenv("REDIS_URL");
        if (url == null || url.isBlank()) {
            System.err.println("FloorsBenchmark: REDIS_URL is not set (benchmarks/run.sh --floors starts a Redis)");
            System.exit(2);
            return;
        }
        Result result = run(URI.create(url), options);
        Files.createDirectories(options.out().toAbsolutePath().getParent());
        Files.writeString(options.out(), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result) + "\n");
        System.out.println("[floors] wrote " + options.out());
    }

    static Result run(URI url, Options options) throws IOException, InterruptedException {
        long start = System.nanoTime();
        String prefix = "floors-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        List<Workload> workloads = Workloads.all().stream()
                .filter(w -> options.only().matcher(w.name()).find() || options.only().matcher(w.key()).find()).toList();
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("--only " + options.only() + " names no operation");
        }
        Path folder = options.out().toAbsolutePath().resolveSibling("floors");
        Files.createDirectories(folder);
        try (Direct direct = new Direct(url);
             RecordingDriver driver = new RecordingDriver(new JedisDriver(RedisSettings.of(
                     RedisSettings.Endpoint.single(url.toString()))))) {
            Map<String, String> floors = direct.loadFloors();
            Runs runs = new Runs(driver, direct, prefix);
            Capacity capacity = new Capacity(url, direct, folder, CLIENTS, PIPELINE);
            try {
                List<Operation> operations = measure(workloads, runs, capacity, floors, options);
                String command = runs.recorded(workloads.getFirst()).getFirst().getFirst().commandLine().getFirst();
                return new Result(direct.redisVersion(), command, capacity.options(), options.rounds(), options.calls(),
                        (System.nanoTime() - start) / 1e9, operations);
            } finally {
                direct.wipe(prefix);
                direct.unloadFloors();
            }
        }
    }

    private static List<Operation> measure(List<Workload> workloads, Runs runs, Capacity capacity,
                                           Map<String, String> floors, Options options)
            throws IOException, InterruptedException {
        // A short first pass: every library loaded into Redis, the code of both sides warm, every floor found.
        for (Workload workload : workloads) {
            runs.warmUp(workload, workload.operations(Math.max(10, options.calls() / 10)), floors.keySet());
        }
        Map<String, List<RoundSample>> samples = new HashMap<>();
        Map<String, Runs.Spent> first = new HashMap<>();
        Map<String, Integer> requests = new HashMap<>();
        for (int round = 1; round <= options.rounds(); round++) {
            // Which side goes first alternates, so that a machine slowing down or speeding up
            // through the round favours neither.
            boolean oursFirst = round % 2 == 1;
            for (Workload workload : workloads) {
                int operations = workload.operations(options.calls());
                Runs.BothSides time = runs.bothSides(workload, operations, oursFirst);
                first.putIfAbsent(workload.key(), time.ours());
                int calls = requests.computeIfAbsent(workload.key(),
                        key -> requestsFor(first.get(key), options.capacitySeconds()));
                Capacity.Rates rates = workload.replay().skipped().isPresent() ? Capacity.Rates.NOT_REPLAYED
                        : capacity.bothSides(runs, workload, operations, calls, round, oursFirst);
                int chats = workload.chatsPerOperation();
                RoundSample sample = new RoundSample(round, time.ours().microsPerOperation() / chats,
                        time.floor().microsPerOperation() / chats, rates.ours(), rates.floor());
                samples.computeIfAbsent(workload.key(), key -> new ArrayList<>()).add(sample);
                System.out.println(progress(workload, sample));
            }
        }
        List<Operation> operations = new ArrayList<>();
        for (Workload workload : workloads) {
            Runs.Spent spent = first.get(workload.key());
            operations.add(new Operation(workload.name(), workload.chatsPerOperation(), spent.operations(),
                    spent.callsPerOperation(), floorText(workload, runs, floors),
                    workload.replay().skipped().isEmpty() ? requests.get(workload.key()) : 0,
                    workload.replay().skipped().orElse(null), samples.get(workload.key())));
        }
        return operations;
    }

    /** The floor's commands, per distinct call of the operation, as the library describes them. */
    private static String floorText(Workload workload, Runs runs, Map<String, String> floors) {
        List<String> parts = new ArrayList<>();
        for (Capacity.Line line : Capacity.lines(runs.recorded(workload).getFirst())) {
            parts.add(line.call().operation() + (line.weight() > 1 ? " ×" + line.weight() : "") + ": "
                    + floors.get(line.call().floor()));
        }
        return String.join("; ", parts);
    }

    /** Enough requests for about {@code seconds} of Redis time at the operation's measured cost per call. */
    static int requestsFor(Runs.Spent spent, double seconds) {
        double micros = Math.max(1, (double) spent.scripts().usec() / Math.max(1, spent.scripts().calls()));
        long requests = Math.round(seconds * 1e6 / micros);
        return Math.clamp(requests, 1_000, 200_000);
    }

    private static String progress(Workload workload, RoundSample sample) {
        String unit = workload.chatsPerOperation() > 1 ? " per chat" : "";
        String line = String.format(Locale.ROOT, "[floors] round %d %-48s ours %8.2f µs, floor %8.2f µs%s (%.2f×)",
                sample.round(), workload.name(), sample.oursMicros(), sample.floorMicros(), unit,
                sample.oursMicros() / sample.floorMicros());
        if (sample.oursPerSecond() != null) {
            line += String.format(Locale.ROOT, "; capacity ours %,.0f/s, floor %,.0f/s (%.2f×)", sample.oursPerSecond(),
                    sample.floorPerSecond(), sample.floorPerSecond() / sample.oursPerSecond());
        }
        return line;
    }

    /** The command line, read by picocli. */
    @Command(name = "FloorsBenchmark", description = "Each Redis operation's time and capacity beside its floor; "
            + "REDIS_URL names the Redis.")
    static final class Flags {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "--out", required = true, description = "where the JSON result goes")
        Path out;
        @Option(names = "--rounds", defaultValue = "3", description = "rounds, each operation and floor back to back")
        int rounds;
        @Option(names = "--calls", defaultValue = "10000", description = "calls of each operation per round")
        int calls;
        @Option(names = "--capacity-seconds", defaultValue = "0.5",
                description = "Redis time each redis-benchmark run should take, about")
        double capacitySeconds;
        @Option(names = "--only", defaultValue = "", description = "only the operations this regex finds")
        Pattern only;

        Options options() {
            if (rounds < 1 || calls < 1 || capacitySeconds <= 0) {
                throw new IllegalArgumentException("--rounds, --calls and --capacity-seconds must be positive");
            }
            return new Options(out, rounds, calls, capacitySeconds, only);
        }
    }

    /** The command line checked; IllegalArgumentException when it is wrong. */
    static Options parse(String... args) {
        Flags flags = new Flags();
        return CommandLines.parse(flags, args, flags::options);
    }
}
