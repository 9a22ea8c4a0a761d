package dev.pigeonhole.app;

/** One number from a server's {@code GET /metrics}, by its Prometheus name. */
final class ServerMetrics {

    private ServerMetrics() {
    }

    /** The value of the series {@code name} (with no labels); fails the test if the server has none. */
    static double read(HttpApi api, String name) {
        HttpApi.Answer answer = api.get("/metrics", null);
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

    static double liveSessions(HttpApi api) {
        return read(api, "pigeonhole_live_sessions");
    }

    static double upstreamSubscriptions(HttpApi api) {
        return read(api, "pigeonhole_upstream_subscriptions");
    }

    static double cutOffAsSlow(HttpApi api) {
        return read(api, "pigeonhole_live_cut_off_slow_total");
    }

    static double eventsPushed(HttpApi api) {
        return read(api, "pigeonhole_live_events_pushed_total");
    }
}
