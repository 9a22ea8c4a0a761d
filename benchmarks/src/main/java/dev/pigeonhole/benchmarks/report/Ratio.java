package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.Formats.NOT_RUN;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * One target: ours ÷ baseline must reach {@code factor}; or, when {@code absolute}, ours alone
 * must reach it (the baseline is then 1, there only to say the comparison can be made).
 */
record Ratio(String name, String target, double factor, OptionalDouble ours, OptionalDouble baseline,
             boolean absolute) {

    OptionalDouble measured() {
        if (ours.isEmpty() || baseline.isEmpty() || baseline.getAsDouble() <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(absolute ? ours.getAsDouble() : ours.getAsDouble() / baseline.getAsDouble());
    }

    String measuredText() {
        OptionalDouble m = measured();
        if (m.isEmpty()) {
            return NOT_RUN;
        }
        return absolute ? Formats.opsText(m.getAsDouble()) + " ops/s" : String.format(Locale.ROOT, "%.2f×", m.getAsDouble());
    }

    /** Met or missed, and by how much relative to the target. */
    String verdict() {
        OptionalDouble m = measured();
        if (m.isEmpty()) {
            return NOT_RUN + " (" + (ours.isEmpty() ? "ours" : "baseline") + " missing)";
        }
        double relative = m.getAsDouble() / factor - 1;
        String by = String.format(Locale.ROOT, "%+.0f%%", relative * 100);
        return relative >= 0 ? "**pass** (" + by + " over target)" : "**miss** (" + by + " under target)";
    }
}
