package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.port.in.ListOnlineUsers;
import dev.pigeonhole.domain.service.PresenceService;
import dev.pigeonhole.domain.service.SubscriptionMultiplexer;

import java.time.Duration;
import java.util.Objects;

/**
 * Everything the composition root needs to know, already validated. Defaults are the values
 * docs/DESIGN.md §3 promises, so {@code AppConfig.defaults()} runs a complete in-memory system.
 */
public record AppConfig(StoreKind store, Limits limits, Duration presenceWindow, int liveQueueCapacity,
                        RedisConfig redis) {

    public AppConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(limits, "limits");
        presenceWindow = new ListOnlineUsers.Query(presenceWindow).within();
        if (liveQueueCapacity < 1) {
            throw new IllegalArgumentException("liveQueueCapacity must be at least 1, not " + liveQueueCapacity);
        }
    }

    public static AppConfig defaults() {
        return new AppConfig(StoreKind.MEMORY, Limits.DEFAULTS, PresenceService.DEFAULT_WINDOW,
                SubscriptionMultiplexer.DEFAULT_QUEUE_CAPACITY, RedisConfig.defaults());
    }

    /** Redis as the store, reached and laid out as {@code value} says. */
    public AppConfig withRedis(RedisConfig value) {
        return new AppConfig(StoreKind.REDIS, limits, presenceWindow, liveQueueCapacity, value);
    }

    public AppConfig withLimits(Limits value) {
        return new AppConfig(store, value, presenceWindow, liveQueueCapacity, redis);
    }

    public AppConfig withPresenceWindow(Duration value) {
        return new AppConfig(store, limits, value, liveQueueCapacity, redis);
    }
}
