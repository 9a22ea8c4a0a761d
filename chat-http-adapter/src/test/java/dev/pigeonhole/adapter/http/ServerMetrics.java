package dev.pigeonhole.adapter.http;

/** One number from a server's {@code GET /metrics}, by its Prometheus name. */
public final class ServerMetrics {

    private ServerMetrics() {
    }

    /** The value of the series {@code name} (with no labels); fails the test if the server has none. */
    public static double read(ApiClient api, String name) {
        ApiClient.Response answer = api.get("/metrics", null);
        if (answer.status() != 200) {
            throw new AssertionError("GET /metrics answered " + answer);
        }
        for (String line : answer.body().split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).strip());
            }
        }
        throw new AssertionError(name + " is not in /metrics");
    }

    public static double liveSessions(ApiClient api) {
        return read(api, "pigeonhole_live_sessions");
    }

    public static double upstreamSubscriptions(ApiClient api) {
        return read(api, "pigeonhole_upstream_subscriptions");
    }

    public static double cutOffAsSlow(ApiClient api) {
        return read(api, "pigeonhole_live_cut_off_slow_total");
    }
}
