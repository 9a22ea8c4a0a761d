package dev.pigeonhole.benchmarks.floors;

import dev.pigeonhole.benchmarks.report.RedisBenchmarkResult;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Capacity: redis-benchmark with many clients, pipelined, repeating an operation's recorded calls
 * as command lines (or their floors'), with what must vary each time drawn at random
 * ({@link Replay}). An operation of several calls (an open and its index steps) has each of its
 * calls repeated in a run of its own; its capacity is then one over the sum of their costs, each
 * weighed by how many times the operation makes it, since the one Redis thread pays them one
 * after another.
 */
final class Capacity {

    enum Side { OURS, FLOOR }

    /** The first word of every answer the adapter's functions give when they did the work. */
    private static final Set<String> DONE = Set.of("SENT", "OPENED", "JOINED", "OK", "PENDING", "READ",
            "DELIVERED", "ADMITTED");

    /** One round's capacity of both sides, in operations a second (chats a second over several); null if not replayed. */
    record Rates(Double ours, Double floor) {

        static final Rates NOT_REPLAYED = new Rates(null, null);
    }

    /** One distinct call of an operation, and how many times the operation makes it. */
    record Line(Call call, int weight) {
    }

    private final URI url;
    private final Direct direct;
    private final Path folder;
    private final int clients;
    private final int pipeline;

    Capacity(URI url, Direct direct, Path folder, int clients, int pipeline) {
        this.url = url;
        this.direct = direct;
        this.folder = folder;
        this.clients = clients;
        this.pipeline = pipeline;
    }

    /** redis-benchmark's options, as the report states them. */
    String options() {
        return "-c " + clients + " -P " + pipeline;
    }

    /** The operation's calls by function, in the order it first makes each. */
    static List<Line> lines(List<Call> operation) {
        Map<String, Line> byFunction = new LinkedHashMap<>();
        for (Call call : operation) {
            byFunction.merge(call.operation(), new Line(call, 1), (had, more) -> new Line(had.call(), had.weight() + 1));
        }
        return List.copyOf(byFunction.values());
    }

    /** Operations a second (chats a second for a workload over several) from each line's calls a second. */
    static double composed(List<Line> lines, List<Double> callsPerSecond, int chatsPerOperation) {
        double seconds = 0;
        for (int i = 0; i < lines.size(); i++) {
            seconds += lines.get(i).weight() / callsPerSecond.get(i);
        }
        return chatsPerOperation / seconds;
    }

    /** Both sides' capacity, back to back, in the order asked. */
    Rates bothSides(Runs runs, Workload workload, int operations, int requests, int round, boolean oursFirst)
            throws IOException, InterruptedException {
        Side first = oursFirst ? Side.OURS : Side.FLOOR;
        double firstRate = measure(runs, workload, operations, first, requests, round);
        double secondRate = measure(runs, workload, operations, oursFirst ? Side.FLOOR : Side.OURS, requests, round);
        return oursFirst ? new Rates(firstRate, secondRate) : new Rates(secondRate, firstRate);
    }

    /**
     * One side's capacity for the workload, each line run from the workload's state set up
     * afresh, with {@code requests} calls. The line is checked once first: the operation's must
     * answer as one that did its work (not a refusal), the floor's must not fail.
     */
    double measure(Runs runs, Workload workload, int operations, Side side, int requests, int round)
            throws IOException, InterruptedException {
        List<Line> lines = lines(runs.recorded(workload).getFirst());
        List<Double> rates = new ArrayList<>(lines.size());
        for (Line line : lines) {
            runs.freshState(workload, operations);
            Call call = line.call();
            List<String> command = workload.replay().line(side == Side.OURS ? call.commandLine()
                    : call.floorCommandLine());
            check(workload, side, command);
            String file = "round-" + round + "-" + workload.key() + "-" + side.name().toLowerCase(Locale.ROOT) + "-"
                    + call.operation() + ".csv";
            rates.add(run(command, requests, workload.replay().options(), folder.resolve(file)));
        }
        runs.wipe(workload);
        return composed(lines, rates, workload.chatsPerOperation());
    }

    private void check(Workload workload, Side side, List<String> command) {
        Object reply = direct.command(Replay.drawn(command, ThreadLocalRandom.current().nextLong(1_000_000_000L)));
        if (side == Side.OURS && !done(reply)) {
            throw new IllegalStateException(workload.name() + ": the replayed " + command.getFirst() + " answered "
                    + Direct.text(reply instanceof List<?> words ? words.stream().map(Direct::text).toList() : reply)
                    + ", not an answer of work done: its capacity would be a refusal's");
        }
    }

    /** An answer whose first word says the work was done; pending's, one answer per chat, for every chat. */
    private static boolean done(Object reply) {
        if (!(reply instanceof List<?> words) || words.isEmpty() || !DONE.contains(Direct.text(words.getFirst()))) {
            return false;
        }
        return !"PENDING".equals(Direct.text(words.getFirst())) || words.stream().skip(1).allMatch(Capacity::done);
    }

    private double run(List<String> command, int requests, List<String> options, Path csv)
            throws IOException, InterruptedException {
        List<String> benchmark = new ArrayList<>(List.of("redis-benchmark", "-u", url.toString(), "-c",
                Integer.toString(clients), "-P", Integer.toString(pipeline), "-n", Integer.toString(requests)));
        benchmark.addAll(options);
        benchmark.add("--csv");
        benchmark.addAll(command);
        Path errors = csv.resolveSibling(csv.getFileName() + ".err");
        Process process = new ProcessBuilder(benchmark).redirectOutput(csv.toFile()).redirectError(errors.toFile())
                .start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("redis-benchmark did not finish within 120 s: " + csv);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("redis-benchmark failed (" + process.exitValue() + "): "
                    + Files.readString(errors).strip());
        }
        if (Files.size(errors) == 0) {
            Files.delete(errors);
        }
        double rps = RedisBenchmarkResult.parse(Files.readAllLines(csv)).map(RedisBenchmarkResult::rps)
                .orElseThrow(() -> new IllegalStateException("no result in redis-benchmark's output " + csv));
        if (!Double.isFinite(rps) || rps <= 0) {
            throw new IllegalStateException("redis-benchmark gave " + rps + " calls a second in " + csv);
        }
        return rps;
    }
}
