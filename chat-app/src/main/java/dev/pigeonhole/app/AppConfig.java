package dev.pigeonhole.app;

import dev.pigeonhole.adapter.postgres.PostgresSettings;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import dev.pigeonhole.domain.service.live.LiveCatchUps;
import dev.pigeonhole.domain.service.live.SubscriptionMultiplexer;
import dev.pigeonhole.domain.service.presence.PresenceService;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the composition root needs to know, already validated. Defaults are the values
 * docs/DESIGN.md §3 promises, so {@code AppConfig.defaults()} runs a complete in-memory system.
 *
 * @param liveCatchUps how many live feeds may read the store for a catch-up at once; on Redis,
 *                     fewer than the pool's connections, which ordinary requests need too
 */
public record AppConfig(StoreKind store, Limits limits, Duration presenceWindow, int liveQueueCapacity,
                        RedisConfig redis, int liveCatchUps, Optional<PostgresSettings> postgres,
                        ConsentLimits consent) {

    public AppConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(postgres, "postgres");
        Objects.requireNonNull(consent, "consent");
        if (store == StoreKind.POSTGRES && postgres.isEmpty()) {
            throw new IllegalArgumentException("the PostgreSQL store needs a JDBC URL and a user");
        }
        presenceWindow = new ListOnlineUsers.Query(presenceWindow).within();
        if (liveQueueCapacity < 1) {
            throw new IllegalArgumentException("liveQueueCapacity must be at least 1, not " + liveQueueCapacity);
        }
        if (liveCatchUps < 1) {
            throw new IllegalArgumentException("live catch-ups must be at least 1, not " + liveCatchUps);
        }
        if (store == StoreKind.REDIS && liveCatchUps >= redis.poolSize()) {
            throw new IllegalArgumentException("live catch-ups (" + liveCatchUps + ") must stay below the Redis pool size ("
                    + redis.poolSize() + "), or a storm of reconnects leaves no connection for requests");
        }
        if (store == StoreKind.POSTGRES && liveCatchUps >= postgres.get().poolSize()) {
            throw new IllegalArgumentException("live catch-ups (" + liveCatchUps + ") must stay below the PostgreSQL"
                    + " pool size (" + postgres.get().poolSize() + "), or a storm of reconnects leaves no connection"
                    + " for requests");
        }
    }

    public static AppConfig defaults() {
        return new AppConfig(StoreKind.MEMORY, Limits.DEFAULTS, PresenceService.DEFAULT_WINDOW,
                SubscriptionMultiplexer.DEFAULT_QUEUE_CAPACITY, RedisConfig.defaults(), LiveCatchUps.DEFAULT_CONCURRENT,
                Optional.empty(), ConsentLimits.DEFAULTS);
    }

    /** Redis as the store, reached and laid out as {@code value} says. */
    public AppConfig withRedis(RedisConfig value) {
        return new AppConfig(StoreKind.REDIS, limits, presenceWindow, liveQueueCapacity, value, liveCatchUps, postgres, consent);
    }

    /** PostgreSQL as the store, reached as {@code value} says. */
    public AppConfig withPostgres(PostgresSettings value) {
        return new AppConfig(StoreKind.POSTGRES, limits, presenceWindow, liveQueueCapacity, redis, liveCatchUps,
                Optional.of(value), consent);
    }

    public AppConfig withLimits(Limits value) {
        return new AppConfig(store, value, presenceWindow, liveQueueCapacity, redis, liveCatchUps, postgres, consent);
    }

    public AppConfig withPresenceWindow(Duration value) {
        return new AppConfig(store, limits, value, liveQueueCapacity, redis, liveCatchUps, postgres, consent);
    }

    public AppConfig withLiveCatchUps(int value) {
        return new AppConfig(store, limits, presenceWindow, liveQueueCapacity, redis, value, postgres, consent);
    }

    /** Who may add whom, and what others can make one user hold (docs/DESIGN.md §3, "Consent"). */
    public AppConfig withConsent(ConsentLimits value) {
        return new AppConfig(store, limits, presenceWindow, liveQueueCapacity, redis, liveCatchUps, postgres, value);
    }
}
