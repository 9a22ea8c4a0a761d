package dev.pigeonhole.adapter.http;

import java.time.Duration;

/**
 * How the HTTP side behaves, beyond what the domain decides.
 *
 * @param devLogin              whether {@code POST /api/session} signs anyone in by name alone
 * @param maxRequestBytes       the largest request body accepted; larger ones get 413
 * @param stopTimeout           how long a stopping server lets requests in flight finish (the drain
 *                              timeout); what is still in flight then is cut off
 * @param liveIdleTimeout       how long a live socket may carry nothing either way before it is
 *                              closed; the server pings a quiet one, and sends a quiet event stream
 *                              a comment, every third of it
 * @param maxLiveConnections    live connections (WebSocket and event stream together) one user may
 *                              hold open on this server; one more is refused with 429
 * @param maxUnsentBytes        bytes of frames one live connection may have waiting to be written;
 *                              a client that lets more pile up is cut off as slow
 * @param storeReadingsEvery    how often the server reads what {@code /metrics} and {@code /health}
 *                              show of the store; scrapes in between are answered from memory
 * @param headerTimeout         how long a request's headers may take to arrive, from its first
 *                              byte; a connection still sending them then is closed
 * @param maxConnectionsPerAddress connections one client address may hold open at once; one more
 *                              is closed as soon as it is accepted
 */
public record HttpSettings(boolean devLogin, int maxRequestBytes, Duration stopTimeout, Duration liveIdleTimeout,
                           int maxLiveConnections, int maxUnsentBytes, Duration storeReadingsEvery,
                           Duration headerTimeout, int maxConnectionsPerAddress) {

    public static final int DEFAULT_MAX_REQUEST_BYTES = 64 * 1024;
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(10);
    /** Jetty's own default, made explicit. */
    public static final Duration DEFAULT_LIVE_IDLE_TIMEOUT = Duration.ofSeconds(30);
    /** A person's browser tabs and devices, with room to spare; not a script's thousand. */
    public static final int DEFAULT_MAX_LIVE_CONNECTIONS = 10;
    /** About 250 messages of 4 KiB: far more than a reading client ever has in flight. */
    public static final int DEFAULT_MAX_UNSENT_BYTES = 1024 * 1024;
    /** Fresh enough for a dashboard; at most two store calls per server every five seconds. */
    public static final Duration DEFAULT_STORE_READINGS_EVERY = Duration.ofSeconds(5);
    /** Ample for any client on any network; a trickle of one header line every few seconds is an attack. */
    public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);
    /** Room for a busy office or carrier NAT behind one address; far below what exhausts the server's files. */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 100;

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
        if (maxLiveConnections < 1) {
            throw new IllegalArgumentException("maxLiveConnections must be at least 1, not " + maxLiveConnections);
        }
        if (maxUnsentBytes < 1) {
            throw new IllegalArgumentException("maxUnsentBytes must be at least 1, not " + maxUnsentBytes);
        }
        if (storeReadingsEvery.toMillis() < 1) {
            throw new IllegalArgumentException("storeReadingsEvery must be at least a millisecond, not " + storeReadingsEvery);
        }
        if (headerTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("headerTimeout must be at least a millisecond, not " + headerTimeout);
        }
        if (maxConnectionsPerAddress < 1) {
            throw new IllegalArgumentException("maxConnectionsPerAddress must be at least 1, not " + maxConnectionsPerAddress);
        }
    }

    public HttpSettings(boolean devLogin, int maxRequestBytes, Duration stopTimeout) {
        this(devLogin, maxRequestBytes, stopTimeout, DEFAULT_LIVE_IDLE_TIMEOUT, DEFAULT_MAX_LIVE_CONNECTIONS,
                DEFAULT_MAX_UNSENT_BYTES, DEFAULT_STORE_READINGS_EVERY, DEFAULT_HEADER_TIMEOUT,
                DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);
    }

    public static HttpSettings defaults(boolean devLogin) {
        return new HttpSettings(devLogin, DEFAULT_MAX_REQUEST_BYTES, DEFAULT_STOP_TIMEOUT);
    }

    public HttpSettings withLiveIdleTimeout(Duration value) {
        return new HttpSettings(devLogin, maxRequestBytes, stopTimeout, value, maxLiveConnections, maxUnsentBytes,
                storeReadingsEvery, headerTimeout, maxConnectionsPerAddress);
    }

    public HttpSettings withMaxLiveConnections(int value) {
        return new HttpSettings(devLogin, maxRequestBytes, stopTimeout, liveIdleTimeout, value, maxUnsentBytes,
                storeReadingsEvery, headerTimeout, maxConnectionsPerAddress);
    }

    public HttpSettings withMaxUnsentBytes(int value) {
        return new HttpSettings(devLogin, maxRequestBytes, stopTimeout, liveIdleTimeout, maxLiveConnections, value,
                storeReadingsEvery, headerTimeout, maxConnectionsPerAddress);
    }

    public HttpSettings withStoreReadingsEvery(Duration value) {
        return new HttpSettings(devLogin, maxRequestBytes, stopTimeout, liveIdleTimeout, maxLiveConnections,
                maxUnsentBytes, value, headerTimeout, maxConnectionsPerAddress);
    }

    public HttpSettings withHeaderTimeout(Duration value) {
        return new HttpSettings(devLogin, maxRequestBytes, stopTimeout, liveIdleTimeout, maxLiveConnections,
                maxUnsentBytes, storeReadingsEvery, value, maxConnectionsPerAddress);
    }

    public HttpSettings withMaxConnectionsPerAddress(int value) {
        return new HttpSettings(devLogin, maxRequestBytes, stopTimeout, liveIdleTimeout, maxLiveConnections,
                maxUnsentBytes, storeReadingsEvery, headerTimeout, value);
    }
}
