package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.Formats.NOT_RUN;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The section of RESULTS.md on what each operation of the Redis adapter costs inside Redis,
 * beside its floor: {@code floors.json}, which {@code FloorsBenchmark} writes, as two tables (Redis
 * time per operation, capacity), each operation held to at most {@value #BOUND}× its floor in
 * every round.
 */
final class FloorsSection {

    /** How much above its floor an operation may cost. */
    static final double BOUND = 1.5;
    static final String FILE = "floors.json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TITLE = "## Inside Redis: each operation beside its floor\n\n";

    private final JsonNode floors;
    private final StringBuilder md = new StringBuilder();

    private FloorsSection(JsonNode floors) {
        this.floors = floors;
    }

    /** The section for a results folder: its {@value #FILE}, or a note that it was not run. */
    static String markdown(Path results) {
        Path file = results.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return TITLE + NOT_RUN + " (no `" + FILE + "` in the results; `benchmarks/run.sh --floors` runs it).\n\n";
        }
        try {
            return markdown(JSON.readTree(file.toFile()));
        } catch (RuntimeException e) {
            return TITLE + "`" + file + "` could not be read (" + e.getMessage() + ").\n\n";
        }
    }

    static String markdown(JsonNode floors) {
        return new FloorsSection(floors).write();
    }

    private String write() {
        md.append(TITLE);
        int rounds = floors.path("rounds").asInt(0);
        String command = floors.path("scriptCommand").asString("FCALL");
        md.append("What each operation of the Redis adapter costs inside Redis, beside its **floor**: a function of "
                        + "the `pigeonhole_floors` library (`benchmarks/src/main/resources/dev/pigeonhole/benchmarks/"
                        + "floors/pigeonhole_floors.lua`) that takes the operation's very keys and arguments but runs "
                        + "only the commands the operation cannot do without, listed below. Both are measured on the "
                        + "same Redis (").append(floors.path("redisVersion").asString("?")).append(") in ")
                .append(rounds).append(rounds == 1 ? " round" : " rounds")
                .append(", each measuring every operation and its floor back to back, which side goes first "
                        + "alternating. The adapter calls its functions with `").append(command)
                .append("`, the floors run with `FCALL`; `FloorsBenchmark` wrote these figures in ")
                .append(Formats.durationText(floors.path("durationSeconds").asDouble(0))).append(".\n\n");
        md.append("- **Redis time**: one caller, ").append(Formats.opsText(floors.path("calls").asDouble(0)))
                .append(" calls of each operation after a short warm-up (a hundredth of that many operations of "
                        + "the per-chat ones, K = 100 chats each); the function commands' `usec` in `INFO "
                        + "commandstats` (FCALL, FCALL_RO and the EVAL family) before and after, over the operations: time "
                        + "inside Redis only, no network, no client. The operation runs through the adapter's port "
                        + "classes; its floor replays the calls the operation recorded.\n")
                .append("- **Capacity**: redis-benchmark `").append(floors.path("capacityOptions").asString("?"))
                .append("` repeating the recorded call as a command line, then its floor's; an id that must be new "
                        + "each time is drawn at random (`-r`). An operation of several calls has each repeated in a "
                        + "run of its own, and its capacity is one over the sum of their costs.\n")
                .append("- Within **").append(bound()).append(" its floor** means in every round: **met** when the "
                        + "whole spread clears it, **missed** when no round does, **undecided** otherwise.\n\n");
        timeTable();
        capacityTable();
        return md.toString();
    }

    private void timeTable() {
        md.append("| Operation | Script calls per operation | Floor's commands | Ours | Floor | Ours ÷ floor, by round | Spread "
                + "| ≤ ").append(bound()).append(" floor |\n|---|---:|---|---:|---:|---:|---:|---|\n");
        for (JsonNode operation : floors.path("operations").values()) {
            Ratio ratio = ratio(operation, round -> number(round, "oursMicros"), round -> number(round, "floorMicros"));
            md.append("| ").append(operation.path("name").asString()).append(" | ")
                    .append(String.format(Locale.ROOT, "%.0f", operation.path("callsPerOperation").asDouble()))
                    .append(" | ").append(operation.path("floor").asString("—").replace("|", "\\|"))
                    .append(" | ").append(range(operation, "oursMicros", Formats::usText))
                    .append(" | ").append(range(operation, "floorMicros", Formats::usText))
                    .append(" | ").append(byRound(ratio)).append(" | ").append(ratio.spreadText())
                    .append(" | ").append(ratio.verdictText()).append(" |\n");
        }
        md.append("\nRedis microseconds per operation; per chat for the K = 100 rows.\n\n");
    }

    private void capacityTable() {
        md.append("| Operation | Ours | Floor | Ours ÷ floor (cost), by round | Spread | ≤ ").append(bound())
                .append(" floor |\n|---|---:|---:|---:|---:|---|\n");
        for (JsonNode operation : floors.path("operations").values()) {
            md.append("| ").append(operation.path("name").asString()).append(" | ");
            if (operation.path("capacitySkipped").isString()) {
                md.append("not replayed: ").append(operation.path("capacitySkipped").asString())
                        .append(" | — | — | — | ").append(NOT_RUN).append(" |\n");
                continue;
            }
            // A cost is one over a rate: ours ÷ floor's in cost is the floor's rate over ours.
            Ratio ratio = ratio(operation, round -> 1 / number(round, "oursPerSecond"),
                    round -> 1 / number(round, "floorPerSecond"));
            md.append(range(operation, "oursPerSecond", rate -> Formats.opsText(rate) + "/s"))
                    .append(" | ").append(range(operation, "floorPerSecond", rate -> Formats.opsText(rate) + "/s"))
                    .append(" | ").append(byRound(ratio)).append(" | ").append(ratio.spreadText())
                    .append(" | ").append(ratio.verdictText()).append(" |\n");
        }
        md.append("\nOperations a second (chats a second for the K = 100 rows), ").append(requests())
                .append(".\n\n");
    }

    /** One operation's rounds as a ratio held to the bound: ours and the floor as costs. */
    private static Ratio ratio(JsonNode operation, ToDoubleFunction<JsonNode> ours, ToDoubleFunction<JsonNode> floor) {
        List<Ratio.Side> sides = new ArrayList<>();
        for (JsonNode round : operation.path("rounds").values()) {
            sides.add(new Ratio.Side(round.path("round").asInt(), finite(ours.applyAsDouble(round)),
                    finite(floor.applyAsDouble(round))));
        }
        return new Ratio(operation.path("name").asString(), Ratio.Kind.AT_MOST_RATIO, BOUND, sides);
    }

    private static String byRound(Ratio ratio) {
        if (ratio.rounds().isEmpty()) {
            return "—";
        }
        List<String> cells = new ArrayList<>();
        ratio.rounds().forEach(side -> cells.add(ratio.roundText(side)));
        return String.join(" · ", cells);
    }

    /** min – max of a field over the rounds, or the one value. */
    private static String range(JsonNode operation, String field, DoubleFunction<String> text) {
        List<Double> values = new ArrayList<>();
        operation.path("rounds").values().forEach(round -> finite(number(round, field)).ifPresent(values::add));
        if (values.isEmpty()) {
            return NOT_RUN;
        }
        double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return min == max ? text.apply(min) : text.apply(min) + " – " + text.apply(max);
    }

    /** How many calls each capacity run made, which was sized to about the same Redis time for every operation. */
    private String requests() {
        IntSummaryStatistics requests = new IntSummaryStatistics();
        floors.path("operations").values().forEach(operation -> {
            if (operation.path("capacityRequests").asInt(0) > 0) {
                requests.accept(operation.path("capacityRequests").asInt());
            }
        });
        return requests.getCount() == 0 ? "no capacity run" : "each run " + Formats.opsText(requests.getMin())
                + " to " + Formats.opsText(requests.getMax()) + " requests, about the same Redis time for each operation";
    }

    private static double number(JsonNode round, String field) {
        JsonNode value = round.path(field);
        return value.isNumber() ? value.asDouble() : Double.NaN;
    }

    private static OptionalDouble finite(double value) {
        return Double.isFinite(value) ? OptionalDouble.of(value) : OptionalDouble.empty();
    }

    private static String bound() {
        return String.format(Locale.ROOT, "%.1f×", BOUND);
    }
}
