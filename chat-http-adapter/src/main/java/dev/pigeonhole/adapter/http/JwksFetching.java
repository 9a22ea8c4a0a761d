package dev.pigeonhole.adapter.http;

import java.time.Duration;

/**
 * How an identity provider's key set (JWKS) is fetched and kept. Every bound here is a bound on
 * what a hostile token can make the server do: a token naming a key the server has not seen makes
 * it fetch the set again, but not more often than {@code minRefetchInterval} allows.
 *
 * @param connectTimeout     how long connecting to the provider may take
 * @param readTimeout        how long the provider may take to answer once connected
 * @param maxBytes           the largest key set document read; a larger one is a failed fetch
 * @param cacheLifetime      how long a fetched set is used before it is fetched again; a key the
 *                           provider withdrew is accepted until then, or until a token naming an
 *                           unknown key makes the server fetch the set sooner
 * @param minRefetchInterval the rate limit on fetches: at most two per interval, however many
 *                           tokens name unknown keys; shorter than {@code cacheLifetime}
 */
public record JwksFetching(Duration connectTimeout, Duration readTimeout, int maxBytes, Duration cacheLifetime,
                           Duration minRefetchInterval) {

    public static final JwksFetching DEFAULTS = new JwksFetching(Duration.ofSeconds(2), Duration.ofSeconds(3),
            64 * 1024, Duration.ofMinutes(5), Duration.ofSeconds(30));

    public JwksFetching {
        if (connectTimeout.toMillis() < 1 || readTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("the key set's timeouts must be at least a millisecond");
        }
        if (maxBytes < 1024) {
            throw new IllegalArgumentException("the key set's size limit must be at least 1024 bytes, not " + maxBytes);
        }
        if (minRefetchInterval.toMillis() < 1 || minRefetchInterval.compareTo(cacheLifetime) >= 0) {
            throw new IllegalArgumentException("the key set's refetch interval must be positive and shorter than its "
                    + "cache lifetime (" + cacheLifetime + "), not " + minRefetchInterval);
        }
    }

    public JwksFetching withCacheLifetime(Duration value) {
        return new JwksFetching(connectTimeout, readTimeout, maxBytes, value, minRefetchInterval);
    }

    public JwksFetching withMinRefetchInterval(Duration value) {
        return new JwksFetching(connectTimeout, readTimeout, maxBytes, cacheLifetime, value);
    }
}
