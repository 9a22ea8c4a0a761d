package dev.pigeonhole.benchmarks.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * What one load run measured, in the two forms it leaves: the JSON file the report reads
 * ({@link #json()}, whose field order is that reader's contract) and the table printed at the end
 * ({@link #table()}).
 */
record LoadResult(LoadOptions options, long sent, long delivered, long expected, long errors,
              long warmupErrors, double windowSeconds, Histogram latency, Histogram lastSocket,
              Histogram startLag) {

    /** Field order is the report writer's contract; keep it. */
    Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("label", options.label());
        json.put("users", options.users());
        json.put("chats", options.chats());
        json.put("rateTarget", wholeIfWhole(options.rate()));
        json.put("durationSeconds", wholeIfWhole(seconds(options.duration())));
        json.put("sent", sent);
        json.put("delivered", delivered);
        json.put("expectedDeliveries", expected);
        json.put("sendsPerSecond", round1(sent / windowSeconds));
        json.put("deliveriesPerSecond", round1(delivered / windowSeconds));
        json.put("errors", errors);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("p50", value(50));
        summary.put("p90", value(90));
        summary.put("p99", value(99));
        summary.put("p999", value(99.9));
        summary.put("max", latency.getTotalCount() == 0 ? 0 : latency.getMaxValue());
        json.put("latencyMicros", summary);
        json.put("percentiles", distribution());
        // Added after the fields above, which readers already expect in their order.
        json.put("scenario", options.scenario());
        Map<String, Object> last = new LinkedHashMap<>();
        last.put("messages", lastSocket.getTotalCount());
        last.put("p50", value(lastSocket, 50));
        last.put("p90", value(lastSocket, 90));
        last.put("p99", value(lastSocket, 99));
        last.put("p999", value(lastSocket, 99.9));
        last.put("max", lastSocket.getTotalCount() == 0 ? 0 : lastSocket.getMaxValue());
        json.put("lastSocketLatencyMicros", last);
        // Every latency above counts from its send's due time; this is how much of it the
        // generator itself added by starting the HTTP call late.
        Map<String, Object> lag = new LinkedHashMap<>();
        lag.put("sends", startLag.getTotalCount());
        lag.put("p50", value(startLag, 50));
        lag.put("p99", value(startLag, 99));
        lag.put("max", startLag.getTotalCount() == 0 ? 0 : startLag.getMaxValue());
        json.put("sendStartLagMicros", lag);
        return json;
    }

    private long value(double percentile) {
        return value(latency, percentile);
    }

    private static long value(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile);
    }

    /**
     * HdrHistogram's own percentile walk, as coarse as keeps it within 60 points: each halving
     * of the remaining tail gets the same number of ticks, so the tail a chart is read for is
     * as well resolved as the median.
     */
    private List<Map<String, Object>> distribution() {
        List<Map<String, Object>> points = new ArrayList<>();
        if (latency.getTotalCount() == 0) {
            return points;
        }
        for (int ticks = 5; ticks >= 1; ticks--) {
            points.clear();
            for (HistogramIterationValue v : latency.percentiles(ticks)) {
                Map<String, Object> point = new LinkedHashMap<>();
                point.put("percentile", Math.round(v.getPercentileLevelIteratedTo() * 1000) / 1000.0);
                point.put("micros", v.getValueIteratedTo());
                points.add(point);
            }
            if (points.size() <= 60) {
                break;
            }
        }
        return points;
    }

    String table() {
        String row = "%-22s %s%n";
        StringBuilder out = new StringBuilder();
        out.append(String.format(row, "label", options.label()));
        out.append(String.format(row, "users / chats", options.users() + " / " + options.chats()));
        out.append(String.format(row, "rate target", wholeIfWhole(options.rate()) + " msg/s"));
        out.append(String.format(row, "measured", String.format("%.1f s", windowSeconds)));
        out.append(String.format(row, "sent", sent + String.format(" (%.1f/s)", sent / windowSeconds)));
        out.append(String.format(row, "delivered / expected", delivered + " / " + expected
                + String.format(" (%.1f/s, %.2f%%)", delivered / windowSeconds,
                expected == 0 ? 0 : 100.0 * delivered / expected)));
        out.append(String.format(row, "errors", errors + (warmupErrors > 0 ? " (and " + warmupErrors + " in warm-up)" : "")));
        out.append(String.format(row, "latency p50", ms(value(50))));
        out.append(String.format(row, "latency p90", ms(value(90))));
        out.append(String.format(row, "latency p99", ms(value(99))));
        out.append(String.format(row, "latency p99.9", ms(value(99.9))));
        out.append(String.format(row, "latency max", ms(latency.getTotalCount() == 0 ? 0 : latency.getMaxValue())));
        out.append(String.format(row, "scenario", options.scenario()));
        out.append(String.format(row, "last socket messages", lastSocket.getTotalCount()
                + " (reached every socket of their chat)"));
        out.append(String.format(row, "last socket p50", ms(value(lastSocket, 50))));
        out.append(String.format(row, "last socket p99", ms(value(lastSocket, 99))));
        out.append(String.format(row, "last socket max", ms(lastSocket.getTotalCount() == 0 ? 0 : lastSocket.getMaxValue())));
        out.append(String.format(row, "send start lag p99", ms(value(startLag, 99)) + " (behind the due time"
                + " every latency counts from)"));
        return out.toString();
    }

    private static String ms(long micros) {
        return String.format("%.3f ms", micros / 1000.0);
    }

    static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    private static Number wholeIfWhole(double d) {
        return d == Math.rint(d) ? (Number) (long) d : (Number) d;
    }

    private static double round1(double d) {
        return Double.isFinite(d) ? Math.round(d * 10) / 10.0 : 0;
    }
}
