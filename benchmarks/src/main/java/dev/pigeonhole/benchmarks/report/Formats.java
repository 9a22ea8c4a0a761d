package dev.pigeonhole.benchmarks.report;

import dev.pigeonhole.benchmarks.Backend;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalDouble;
import tools.jackson.databind.JsonNode;

/** How the report writes numbers and names: one place, so every table reads the same. */
final class Formats {

    /** What a cell says when the run has no result for it. */
    static final String NOT_RUN = "not run";

    private Formats() {
    }

    /** A backend as the tables and charts name it. */
    static String name(Backend backend) {
        return switch (backend) {
            case IN_MEMORY -> "In-memory";
            case JEDIS -> "Jedis";
            case LETTUCE -> "Lettuce";
            case POSTGRES -> "PostgreSQL";
            case JEDIS_CLUSTER -> "Jedis, 3-master cluster";
            case LETTUCE_CLUSTER -> "Lettuce, 3-master cluster";
            case REDISSON -> "Redisson";
            case GLIDE -> "Valkey GLIDE";
        };
    }

    /** The label benchmarks/run.sh gives the load run of a backend. */
    static String loadLabel(Backend backend) {
        return switch (backend) {
            case IN_MEMORY -> "memory";
            case JEDIS -> "jedis";
            case LETTUCE -> "lettuce";
            case POSTGRES -> "postgres";
            case REDISSON -> "redisson";
            case GLIDE -> "glide";
            // run.sh drives no load against a cluster; were it to, these would be its labels.
            case JEDIS_CLUSTER, LETTUCE_CLUSTER -> backend.name().toLowerCase(Locale.ROOT);
        };
    }

    static String opsText(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "—";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    static String scoreText(JmhResult b) {
        // One measurement iteration gives JMH no error estimate (NaN): show the score alone then.
        return Double.isNaN(b.error()) ? opsText(b.score()) : opsText(b.score()) + " ± " + opsText(b.error());
    }

    static String allocText(JmhResult b) {
        return b.bytesPerOp().isPresent() ? String.format(Locale.ROOT, "%,.0f", b.bytesPerOp().getAsDouble()) : "—";
    }

    static String usText(double us) {
        if (Double.isNaN(us)) {
            return "—";
        }
        if (us >= 1000) {
            return String.format(Locale.ROOT, "%.2f ms", us / 1000);
        }
        return String.format(Locale.ROOT, us < 10 ? "%.2f µs" : "%.1f µs", us);
    }

    static String percentileText(JmhResult b, double percentile) {
        OptionalDouble micros = b.percentileMicros(percentile);
        return micros.isPresent() ? usText(micros.getAsDouble()) : "—";
    }

    static String millisText(OptionalDouble ms) {
        return ms.isPresent() ? String.format(Locale.ROOT, "%.3f ms", ms.getAsDouble()) : "—";
    }

    /** A latency of the load generator's, whole microseconds. */
    static String microsText(JsonNode n) {
        if (!n.isNumber()) {
            return "—";
        }
        double us = n.asDouble();
        return us >= 1000 ? String.format(Locale.ROOT, "%.2f ms", us / 1000) : String.format(Locale.ROOT, "%.0f µs", us);
    }

    /** A number field of the load generator's JSON. */
    static String num(JsonNode json, String field) {
        JsonNode n = json.path(field);
        if (!n.isNumber()) {
            return "—";
        }
        // Counts are whole numbers; only rates may carry decimals worth showing.
        return n.isIntegralNumber() ? String.format(Locale.ROOT, "%,d", n.asLong()) : opsText(n.asDouble());
    }

    static String durationText(double seconds) {
        Duration d = Duration.ofMillis(Math.round(seconds * 1000));
        return d.toHours() > 0
                ? String.format(Locale.ROOT, "%dh %02dm %02ds", d.toHours(), d.toMinutesPart(), d.toSecondsPart())
                : String.format(Locale.ROOT, "%dm %02ds", d.toMinutes(), d.toSecondsPart());
    }
}
