package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What {@code /metrics} and {@code /health} tell of the store, read by one thread per server at a
 * fixed interval and answered from memory. Anyone may scrape either as often as it likes, so no
 * scrape reaches the store: each interval costs it one health check and one count of who is online,
 * whatever the number of scrapes, and an answer is never older than the interval (plus the time a
 * slow store takes to answer). A check that hangs on a dead store holds up the refresher, not a
 * request.
 */
final class StoreReadings implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StoreReadings.class);

    private final StoreHealth health;
    private final ListOnlineUsers online;
    private final Duration every;
    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(
            Thread.ofVirtual().name("pigeonhole-store-readings").factory());
    private volatile StoreHealth.Status status = new StoreHealth.Status(false, "unknown", "not checked yet");
    private volatile int onlineUsers;

    StoreReadings(StoreHealth health, ListOnlineUsers online, Duration every) {
        this.health = Objects.requireNonNull(health, "health");
        this.online = Objects.requireNonNull(online, "online");
        this.every = Objects.requireNonNull(every, "every");
    }

    /** Reads once now, so the first answer is already right, then again every interval until closed. */
    void start() {
        refresh();
        long millis = every.toMillis();
        refresher.scheduleWithFixedDelay(this::refresh, millis, millis, TimeUnit.MILLISECONDS);
    }

    StoreHealth.Status status() {
        return status;
    }

    /** Users seen within the presence window at the last reading; the last good count while the store is away. */
    int onlineUsers() {
        return onlineUsers;
    }

    private void refresh() {
        StoreHealth.Status checked;
        try {
            checked = health.check();
        } catch (RuntimeException e) {
            checked = new StoreHealth.Status(false, "unknown", "the health check failed: " + e.getClass().getSimpleName());
        }
        status = checked;
        try {
            onlineUsers = online.onlineCount();
        } catch (RuntimeException e) {
            // The health reading says the store is away; the count waits for the next round.
            LOG.debug("counting online users failed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
