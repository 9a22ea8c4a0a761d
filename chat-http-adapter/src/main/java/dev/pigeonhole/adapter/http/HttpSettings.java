package dev.pigeonhole.adapter.http;

import java.time.Duration;

/**
 * How the HTTP side behaves, beyond what the domain decides.
 *
 * @param devLogin        whether {@code POST /api/session} signs anyone in by name alone
 * @param maxRequestBytes the largest request body accepted; larger ones get 413
 * @param stopTimeout     how long a stopping server lets requests in flight finish
 */
public record HttpSettings(boolean devLogin, int maxRequestBytes, Duration stopTimeout) {

    public static final int DEFAULT_MAX_REQUEST_BYTES = 64 * 1024;
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(10);

    public HttpSettings {
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes must be at least 1, not " + maxRequestBytes);
        }
        if (stopTimeout.isNegative()) {
            throw new IllegalArgumentException("stopTimeout must not be negative, not " + stopTimeout);
        }
    }

    public static HttpSettings defaults(boolean devLogin) {
        return new HttpSettings(devLogin, DEFAULT_MAX_REQUEST_BYTES, DEFAULT_STOP_TIMEOUT);
    }
}
