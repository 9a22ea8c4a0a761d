package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.Formats.NOT_RUN;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * One target, measured in rounds: in each round ours ÷ baseline (both measured back to back in
 * that round) is held against {@code target}; for an absolute target ours alone is. A target is
 * met only when every round clears it, missed when none does, and undecided when the rounds fall
 * on both sides: a spread that straddles the target says the machine's noise is larger than the
 * margin, and a rerun could read either way.
 */
record Ratio(String name, Kind kind, double target, List<Side> rounds) {

    /** What is compared with the target, and which way it must lie. */
    enum Kind {
        /** ours ÷ baseline ≥ target. */
        RATIO,
        /** ours ÷ baseline ≤ target: a cost held within a bound of its baseline's. */
        AT_MOST_RATIO,
        /** ours ≥ target, in operations per second. */
        AT_LEAST_OPS,
        /** ours ≤ target, in milliseconds. */
        AT_MOST_MILLIS,
        /** ours ≤ target, in bytes. */
        AT_MOST_BYTES;

        /** Whether a lower value is the better one. */
        boolean ceiling() {
            return this == AT_MOST_RATIO || this == AT_MOST_MILLIS || this == AT_MOST_BYTES;
        }

        /** Whether ours is divided by the baseline. */
        boolean divides() {
            return this == RATIO || this == AT_MOST_RATIO;
        }
    }

    enum Verdict { MET, UNDECIDED, MISSED, NOT_RUN }

    /** One round's two sides; an absolute target has no baseline. */
    record Side(int round, OptionalDouble ours, OptionalDouble baseline) {

        static Side absolute(int round, OptionalDouble ours) {
            return new Side(round, ours, OptionalDouble.empty());
        }
    }

    Ratio {
        rounds = List.copyOf(rounds);
    }

    /** The measured value of a round: the ratio, or ours alone for an absolute target; empty when a side is missing. */
    OptionalDouble measured(Side side) {
        if (side.ours().isEmpty()) {
            return OptionalDouble.empty();
        }
        if (!kind.divides()) {
            return side.ours();
        }
        if (side.baseline().isEmpty() || side.baseline().getAsDouble() <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(side.ours().getAsDouble() / side.baseline().getAsDouble());
    }

    /** The rounds' measured values, in round order, those with a missing side left out. */
    List<Double> values() {
        return rounds.stream().map(this::measured).filter(OptionalDouble::isPresent)
                .map(OptionalDouble::getAsDouble).toList();
    }

    boolean clears(double value) {
        return kind.ceiling() ? value <= target : value >= target;
    }

    Verdict verdict() {
        List<Double> values = values();
        if (values.isEmpty()) {
            return Verdict.NOT_RUN;
        }
        long clearing = values.stream().filter(this::clears).count();
        if (clearing == values.size()) {
            return Verdict.MET;
        }
        return clearing == 0 ? Verdict.MISSED : Verdict.UNDECIDED;
    }

    String targetText() {
        return switch (kind) {
            case RATIO -> "≥ " + number(target) + "×";
            case AT_MOST_RATIO -> "≤ " + number(target) + "×";
            case AT_LEAST_OPS -> "≥ " + Formats.opsText(target) + " ops/s";
            case AT_MOST_MILLIS -> "≤ " + number(target) + " ms";
            case AT_MOST_BYTES -> "≤ " + Formats.opsText(target) + " B";
        };
    }

    /** One round's cell: its value, or why it has none. */
    String roundText(Side side) {
        OptionalDouble m = measured(side);
        return m.isPresent() ? valueText(m.getAsDouble()) : "—";
    }

    /** min–max over the rounds measured, and how many there were. */
    String spreadText() {
        List<Double> values = values();
        if (values.isEmpty()) {
            return NOT_RUN;
        }
        double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        String range = values.size() == 1 ? valueText(min) : valueText(min) + " – " + valueText(max);
        return range + " (" + values.size() + (values.size() == 1 ? " round)" : " rounds)");
    }

    /** The verdict and its margin: the worst round's for a target met, the best's for one missed. */
    String verdictText() {
        List<Double> values = values();
        return switch (verdict()) {
            case NOT_RUN -> NOT_RUN + " (" + missingSide() + " missing)";
            case MET -> "**met** (worst round " + margin(worst(values)) + ")";
            case MISSED -> "**missed** (best round " + margin(best(values)) + ")";
            case UNDECIDED -> "**undecided** (rounds from " + margin(worst(values)) + " to " + margin(best(values)) + ")";
        };
    }

    private String missingSide() {
        boolean oursMissing = rounds.isEmpty() || rounds.stream().allMatch(s -> s.ours().isEmpty());
        return oursMissing ? "ours" : "baseline";
    }

    /** How far a value lies past the target, positive on the good side. */
    private String margin(double value) {
        double relative = kind.ceiling() ? 1 - value / target : value / target - 1;
        return String.format(Locale.ROOT, "%+.0f%%", relative * 100);
    }

    private double worst(List<Double> values) {
        return kind.ceiling() ? max(values) : min(values);
    }

    private double best(List<Double> values) {
        return kind.ceiling() ? min(values) : max(values);
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    private String valueText(double value) {
        return switch (kind) {
            case RATIO, AT_MOST_RATIO -> String.format(Locale.ROOT, "%.2f×", value);
            case AT_LEAST_OPS -> Formats.opsText(value) + " ops/s";
            case AT_MOST_MILLIS -> String.format(Locale.ROOT, "%.2f ms", value);
            case AT_MOST_BYTES -> Formats.opsText(value) + " B";
        };
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%s", value);
    }
}
