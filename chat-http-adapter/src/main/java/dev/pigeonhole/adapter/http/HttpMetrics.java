package dev.pigeonhole.adapter.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What {@code /metrics} shows, counted at the edge where requests arrive. The route tag is the
 * path template, never the concrete path, so a million chats make one time series, not a million.
 */
final class HttpMetrics {

    private final MeterRegistry registry;
    /** Bounded: routes are templates and statuses few. */
    private final ConcurrentHashMap<TimerKey, Timer> timers = new ConcurrentHashMap<>();
    private final Counter messagesSent;
    private final Counter pendingFetches;
    private final Counter acknowledges;
    private final DistributionSummary mailboxDepth;
    private final Counter livePushed;
    private final Counter liveCutOff;

    HttpMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.messagesSent = Counter.builder("pigeonhole.messages.sent")
                .description("chat messages sent, first messages of new chats included").register(registry);
        this.pendingFetches = Counter.builder("pigeonhole.pending.fetches")
                .description("fetches of pending messages").register(registry);
        this.acknowledges = Counter.builder("pigeonhole.acknowledges")
                .description("acknowledgements of read messages").register(registry);
        this.mailboxDepth = DistributionSummary.builder("pigeonhole.mailbox.depth")
                .description("messages in the recipient's mailbox right after a delivery")
                .baseUnit("messages").register(registry);
        this.livePushed = Counter.builder("pigeonhole.live.events.pushed")
                .description("events sent to live connections, catch-up included").register(registry);
        this.liveCutOff = Counter.builder("pigeonhole.live.cut.off.slow")
                .description("live connections closed because the client stopped reading").register(registry);
    }

    /** A value read on every scrape, such as how many users are online. */
    void gauge(String name, String description, Supplier<Number> value) {
        Gauge.builder(name, value).description(description).register(registry);
    }

    void request(String method, String route, int status, long nanos) {
        // Every request lands here: build each timer once, not a builder and its tags per request.
        timers.computeIfAbsent(new TimerKey(method, route, status), key -> Timer.builder("http.server.requests")
                        .description("HTTP requests by route and status")
                        .tag("method", key.method())
                        .tag("route", key.route())
                        .tag("status", Integer.toString(key.status()))
                        .serviceLevelObjectives(Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(25),
                                Duration.ofMillis(100), Duration.ofMillis(500))
                        .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    private record TimerKey(String method, String route, int status) {
    }

    void messageSent() {
        messagesSent.increment();
    }

    void pendingFetched() {
        pendingFetches.increment();
    }

    void acknowledged() {
        acknowledges.increment();
    }

    void livePushed() {
        livePushed.increment();
    }

    void liveCutOffAsSlow() {
        liveCutOff.increment();
    }

    void mailboxDepth(int depth) {
        mailboxDepth.record(depth);
    }
}
