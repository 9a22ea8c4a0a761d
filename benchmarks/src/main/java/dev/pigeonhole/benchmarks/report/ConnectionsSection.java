package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.Formats.NOT_RUN;
import static dev.pigeonhole.benchmarks.report.Formats.opsText;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The page's section on many live connections: the targets held against the largest N run, then
 * every field of each N's result, one column per N.
 */
final class ConnectionsSection {

    private ConnectionsSection() {
    }

    /** The many-live-connections benchmark, one column per N run, and its targets held against the largest N. */
    static void append(StringBuilder md, RunResults run) {
        md.append("## Many live connections\n\n");
        Map<Integer, JsonNode> byN = run.connections();
        if (byN.isEmpty()) {
            md.append(NOT_RUN).append(" (no `connections-N.json` in the results). Its targets: connects per second at "
                    + "N = 5 000 at least 0.8× the rate of the first 100 and at least 500/s; at most 64 KiB of server "
                    + "memory per idle socket; the last of 999 sockets in one chat served within 50 ms at N = 5 000."
                    + "\n\n");
            return;
        }
        md.append("`ConnectionsBenchmark` against a fresh in-memory server for each N (rate limits off): N users "
                + "open one live socket each, one after another; then one message at a time goes to a chat of the "
                + "first members' sockets.");
        if (byN.keySet().stream().noneMatch(n -> n >= 5_000)) {
            md.append(" **This run did not reach N = 5 000** (quick mode runs smaller N): the targets below are "
                    + "held against its largest N, which says less than the full run's.");
        }
        md.append("\n\n| Target | Bound | Measured | Verdict |\n|---|---:|---:|---|\n");
        for (Ratio target : Targets.connections(byN)) {
            md.append("| ").append(target.name()).append(" | ").append(target.targetText()).append(" | ")
                    .append(target.rounds().stream().findFirst().map(target::roundText).orElse("—")).append(" | ")
                    .append(target.verdictText().replace("(worst round ", "(").replace("(best round ", "("))
                    .append(" |\n");
        }
        md.append("\n| Field");
        byN.keySet().forEach(n -> md.append(" | N = ").append(Formats.opsText(n)));
        md.append(" |\n|---").append("|---:".repeat(byN.size())).append("|\n");
        Map<String, List<String>> rows = new LinkedHashMap<>();
        int column = 0;
        for (JsonNode json : byN.values()) {
            Map<String, String> fields = new LinkedHashMap<>();
            flatten("", json, fields);
            for (Map.Entry<String, String> field : fields.entrySet()) {
                List<String> row = rows.computeIfAbsent(field.getKey(), k -> new ArrayList<>());
                while (row.size() < column) {
                    row.add("—");
                }
                row.add(field.getValue());
            }
            column++;
        }
        rows.forEach((field, values) -> {
            md.append("| ").append(field);
            for (int i = 0; i < byN.size(); i++) {
                md.append(" | ").append(i < values.size() ? values.get(i) : "—");
            }
            md.append(" |\n");
        });
        md.append('\n');
    }

    /**
     * A JSON document's leaves by their dotted path, each as the page shows it; the connections
     * benchmark's {@code stretches} (connects per second over each tenth of N) become one row.
     */
    private static void flatten(String path, JsonNode node, Map<String, String> into) {
        if (path.equals("stretches") && node.isArray()) {
            List<String> rates = new ArrayList<>();
            node.values().forEach(stretch -> rates.add(opsText(stretch.path("connectsPerSecond").asDouble(Double.NaN))));
            into.put("stretches: connects/s over each tenth of N", String.join(" · ", rates));
        } else if (node.isObject()) {
            node.properties().forEach(e -> flatten(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), e.getValue(),
                    into));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                flatten(path + "[" + i + "]", node.get(i), into);
            }
        } else {
            into.put(path, node.isNull() ? "—" : node.isIntegralNumber() ? String.format(Locale.ROOT, "%,d", node.asLong())
                    : node.isNumber() ? opsText(node.asDouble()) : node.asString(""));
        }
    }
}
