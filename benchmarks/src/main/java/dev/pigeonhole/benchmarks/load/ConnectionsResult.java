package dev.pigeonhole.benchmarks.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** What a connections run measured, as the JSON file the report reads and as the summary printed at the end. */
final class ConnectionsResult {

    /** The first stretch of connects, whose rate is the baseline. */
    static final int FIRST = 100;

    private ConnectionsResult() {
    }

    /**
     * The JSON the report reads: how fast the sockets opened (first 100, the last stretch, overall,
     * and stretch by stretch), the memory per idle socket, and the fan-out rounds' times.
     */
    static Map<String, Object> json(ConnectionsOptions options, int opened, long begin, long[] done,
                                    ServerProbe.Memory before, ServerProbe.Memory after, OptionalLong sessions,
                                    List<Double> lastOf, List<Double> medianOf, long errors) {
        int n = options.sockets();
        int last = Math.max(FIRST, n / 10);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("sockets", n);
        json.put("opened", opened);
        json.put("serverLiveSessions", sessions.isPresent() ? sessions.getAsLong() : null);
        json.put("chatMembers", options.chatMembers());
        json.put("groupSize", options.groupSize());
        json.put("warmupSockets", options.warmupSockets());
        json.put("connectsPerSecondFirst100", opened >= FIRST ? rate(FIRST, done[FIRST - 1] - begin) : null);
        json.put("lastStretchSockets", last);
        // At N = 100 the last stretch is every socket, timed from the start as the first 100 are.
        json.put("connectsPerSecondLast", opened == n ? rate(last, done[n - 1] - (n > last ? done[n - 1 - last] : begin))
                : null);
        json.put("connectsPerSecondOverall", opened > 0 ? rate(opened, done[opened - 1] - begin) : null);
        List<Map<String, Object>> stretches = new ArrayList<>();
        int step = Math.max(FIRST, n / 10);
        for (int from = 0; from + step <= opened; from += step) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("from", from);
            s.put("to", from + step);
            s.put("connectsPerSecond", rate(step, done[from + step - 1] - (from == 0 ? begin : done[from - 1])));
            stretches.add(s);
        }
        json.put("stretches", stretches);
        json.put("rssBytesBefore", orNull(before.rssBytes()));
        json.put("rssBytesAfter", orNull(after.rssBytes()));
        json.put("rssBytesPerIdleSocket", perSocket(before.rssBytes(), after.rssBytes(), opened));
        json.put("heapBytesBefore", orNull(before.heapBytes()));
        json.put("heapBytesAfter", orNull(after.heapBytes()));
        json.put("heapBytesPerIdleSocket", perSocket(before.heapBytes(), after.heapBytes(), opened));
        json.put("lastOfChatMillis", lastOf.isEmpty() ? null : round2(median(lastOf)));
        json.put("lastOfChatMillisMax", lastOf.isEmpty() ? null : round2(lastOf.stream().mapToDouble(d -> d).max().orElse(0)));
        json.put("lastOfChatMillisRounds", lastOf.stream().map(ConnectionsResult::round2).toList());
        json.put("medianOfChatMillis", medianOf.isEmpty() ? null : round2(median(medianOf)));
        json.put("errors", errors);
        return json;
    }

    private static double rate(int count, long nanos) {
        return Math.round(count * 1e10 / Math.max(1, nanos)) / 10.0;
    }

    private static Object perSocket(OptionalLong before, OptionalLong after, int sockets) {
        return before.isPresent() && after.isPresent() && sockets > 0
                ? (after.getAsLong() - before.getAsLong()) / sockets : null;
    }

    private static Object orNull(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(d -> d).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    static double round2(double d) {
        return Math.round(d * 100) / 100.0;
    }

    static String summary(Map<String, Object> r) {
        String row = "%-34s %s%n";
        StringBuilder out = new StringBuilder();
        out.append(String.format(row, "sockets opened", r.get("opened") + " of " + r.get("sockets")
                + " (the server counts " + r.get("serverLiveSessions") + ")"));
        out.append(String.format(row, "connects/s, first 100", r.get("connectsPerSecondFirst100")));
        out.append(String.format(row, "connects/s, last " + r.get("lastStretchSockets"), r.get("connectsPerSecondLast")));
        out.append(String.format(row, "connects/s, overall", r.get("connectsPerSecondOverall")));
        Object first = r.get("connectsPerSecondFirst100");
        Object last = r.get("connectsPerSecondLast");
        if (first instanceof Double f && last instanceof Double l) {
            out.append(String.format(row, "last / first", String.format("%.2f (target >= 0.80, and >= 500/s)", l / f)));
        }
        out.append(String.format(row, "CPU per connect, server / client",
                r.get("serverCpuMillisPerConnect") + " ms / " + r.get("clientCpuMillisPerConnect") + " ms"));
        out.append(String.format(row, "server RSS per idle socket", kib(r.get("rssBytesPerIdleSocket")) + " (target <= 64 KiB)"));
        out.append(String.format(row, "server heap per idle socket", kib(r.get("heapBytesPerIdleSocket")) + " (after a full GC)"));
        out.append(String.format(row, "last of " + r.get("chatMembers") + " sockets has it",
                r.get("lastOfChatMillis") + " ms median, " + r.get("lastOfChatMillisMax") + " ms worst of "
                        + r.get("lastOfChatMillisRounds") + " (target <= 50 ms)"));
        out.append(String.format(row, "half of them have it", r.get("medianOfChatMillis") + " ms"));
        out.append(String.format(row, "errors", r.get("errors")));
        return out.toString();
    }

    private static String kib(Object bytes) {
        return bytes instanceof Number b ? String.format("%.1f KiB", b.doubleValue() / 1024) : "not measured (no --server-pid)";
    }
}
