package dev.pigeonhole.benchmarks.report;

import dev.pigeonhole.benchmarks.Backend;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/** One JMH result, scores normalised: throughput in ops/s, times in microseconds. */
record JmhResult(String className, String method, String mode, int threads, Map<String, String> params,
                 double score, double error, Map<String, Double> percentilesMicros, OptionalDouble bytesPerOp) {

    /** One entry of JMH's JSON output ({@code -rf json}). */
    static JmhResult from(JsonNode node) {
        String full = node.path("benchmark").asString("");
        int dot = full.lastIndexOf('.');
        String qualifiedClass = dot < 0 ? full : full.substring(0, dot);
        String className = qualifiedClass.substring(qualifiedClass.lastIndexOf('.') + 1);
        String method = dot < 0 ? "" : full.substring(dot + 1);
        String mode = node.path("mode").asString("");
        Map<String, String> params = new TreeMap<>();
        for (Map.Entry<String, JsonNode> p : node.path("params").properties()) {
            params.put(p.getKey(), p.getValue().asString(""));
        }
        JsonNode primary = node.path("primaryMetric");
        String unit = primary.path("scoreUnit").asString("");
        double factor = mode.equals("thrpt") ? toPerSecond(unit) : toMicros(unit);
        double score = primary.path("score").asDouble(Double.NaN) * factor;
        double error = primary.path("scoreError").asDouble(Double.NaN) * factor;
        Map<String, Double> percentiles = new TreeMap<>();
        for (Map.Entry<String, JsonNode> p : primary.path("scorePercentiles").properties()) {
            percentiles.put(p.getKey(), p.getValue().asDouble() * factor);
        }
        OptionalDouble alloc = OptionalDouble.empty();
        for (Map.Entry<String, JsonNode> m : node.path("secondaryMetrics").properties()) {
            // JMH names it "·gc.alloc.rate.norm" (with a middle dot); match the tail to be safe across versions.
            if (m.getKey().endsWith("gc.alloc.rate.norm")) {
                alloc = OptionalDouble.of(m.getValue().path("score").asDouble());
            }
        }
        return new JmhResult(className, method, mode, node.path("threads").asInt(1), params, score, error,
                percentiles, alloc);
    }

    static double toPerSecond(String unit) {
        return switch (unit) {
            case "ops/ms" -> 1e3;
            case "ops/us" -> 1e6;
            case "ops/ns" -> 1e9;
            case "ops/min" -> 1.0 / 60;
            default -> 1;
        };
    }

    static double toMicros(String unit) {
        return switch (unit) {
            case "s/op" -> 1e6;
            case "ms/op" -> 1e3;
            case "ns/op" -> 1e-3;
            default -> 1;
        };
    }

    boolean isThroughput() {
        return mode.equals("thrpt");
    }

    Optional<String> param(String name) {
        return params.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).findFirst();
    }

    /** Whether any parameter names this backend, as the benchmarks' {@code backend} or a baseline's {@code client}. */
    boolean names(Backend backend) {
        return params.values().stream().anyMatch(backend.name()::equalsIgnoreCase);
    }

    /** A percentile of a sample-time result, in microseconds. */
    OptionalDouble percentileMicros(double percentile) {
        // JMH keys percentiles as "50.0", "99.0", "99.9": compare as numbers, not text.
        return percentilesMicros.entrySet().stream().filter(e -> asNumber(e.getKey()) == percentile)
                .mapToDouble(Map.Entry::getValue).findFirst();
    }

    private static double asNumber(String key) {
        try {
            return Double.parseDouble(key);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    boolean virtual() {
        return method.toLowerCase(Locale.ROOT).contains("virtual");
    }

    /** What makes two results the same measurement: class, method, mode, threads and parameters. */
    String key() {
        return className + "." + method + " " + mode + " t" + threads + " " + paramText();
    }

    String paramText() {
        if (params.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        params.forEach((k, v) -> text.append(text.isEmpty() ? "" : ", ").append(k).append('=').append(v));
        return text.toString();
    }
}
