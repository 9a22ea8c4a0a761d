package dev.pigeonhole.adapter.http;

import java.time.Duration;

/**
 * How the HTTP side behaves, beyond what the domain decides.
 *
 * @param devLogin        whether {@code POST /api/session} signs anyone in by name alone
 * @param maxRequestBytes the largest request body accepted; larger ones get 413
 * @param stopTimeout     how long a stopping server lets requests in flight finish
 * @param liveIdleTimeout how long a live socket may carry nothing either way before it is closed;
 *                        the server pings a quiet one, and sends a quiet event stream a comment,
 *                        every third of it
 */
public record HttpSettings(boolean devLogin, int maxRequestBytes, Duration stopTimeout, Duration liveIdleTimeout) {

    public static final int DEFAULT_MAX_REQUEST_BYTES = 64 * 1024;
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(10);
    /** Jetty's own default, made explicit. */
    public static final Duration DEFAULT_LIVE_IDLE_TIMEOUT = Duration.ofSeconds(30);

    public HttpSettings {
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes must be at least 1, not " + maxRequestBytes);
        }
        if (stopTimeout.isNegative()) {
            throw new IllegalArgumentException("stopTimeout must not be negative, not " + stopTimeout);
        }
        if (!liveIdleTimeout.isPositive()) {
            throw new IllegalArgumentException("liveIdleTimeout must be positive, not " + liveIdleTimeout);
        }
    }

    public HttpSettings(boolean devLogin, int maxRequestBytes, Duration stopTimeout) {
        this(devLogin, maxRequestBytes, stopTimeout, DEFAULT_LIVE_IDLE_TIMEOUT);
    }

    public static HttpSettings defaults(boolean devLogin) {
        return new HttpSettings(devLogin, DEFAULT_MAX_REQUEST_BYTES, DEFAULT_STOP_TIMEOUT);
    }

    public HttpSettings withLiveIdleTimeout(Duration value) {
        return new HttpSettings(devLogin, maxRequestBytes, stopTimeout, value);
    }
}
