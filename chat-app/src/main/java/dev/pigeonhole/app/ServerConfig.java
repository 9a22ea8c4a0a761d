package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.HttpSettings;
import dev.pigeonhole.adapter.http.Tokens;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the server listens and signs people in, already validated.
 *
 * @param jwtSecret   the HS256 secret every instance shares; without one, each process makes up its own
 * @param devLogin    sign in by name alone; empty means the default: on exactly when no key is configured
 *                    (neither a secret nor an identity provider), and then only on a loopback host, since
 *                    anyone who reaches it could sign in as anyone
 * @param jwtProvider an identity provider whose tokens are checked with its public keys; the server then
 *                    issues none, so it goes with neither a secret nor dev login
 * @param maintenance how often an instance tries to take the maintenance lease and prune presence
 * @param maxLiveConnections live connections one user may hold open on this instance
 * @param maxUnsentBytes     bytes of frames a live connection may have waiting to be written
 * @param headerTimeout      how long a request's headers may take to arrive before the connection is closed
 * @param maxConnectionsPerAddress connections one client address may hold open at once
 * @param storeReadings      how often the store is asked whether it answers, which /health reports
 *                           (and the online gauge); /health itself never waits on the store
 * @param otlpEndpoint       where spans are posted (OTLP over HTTP), e.g. {@code http://collector:4318/v1/traces};
 *                           empty traces nothing
 * @param drainTimeout       how long a stopping server waits for the requests in flight before it cuts them off
 */
public record ServerConfig(String host, int port, Optional<String> jwtSecret, Optional<Boolean> devLogin,
                           Optional<JwtProvider> jwtProvider,
                           Duration tokenLifetime, int maxRequestBytes, Duration maintenance, int maxLiveConnections,
                           int maxUnsentBytes, Duration headerTimeout, int maxConnectionsPerAddress,
                           Duration storeReadings, Optional<URI> otlpEndpoint, Duration drainTimeout) {

    public static final int DEFAULT_PORT = 8080;

    public ServerConfig {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 and 65535, not " + port);
        }
        Objects.requireNonNull(jwtSecret, "jwtSecret");
        jwtSecret.ifPresent(secret -> {
            if (secret.getBytes(StandardCharsets.UTF_8).length < Tokens.MIN_SECRET_BYTES) {
                throw new IllegalArgumentException("the JWT secret must be at least " + Tokens.MIN_SECRET_BYTES
                        + " bytes (256 bits) for HS256; generate one with: openssl rand -base64 48");
            }
        });
        Objects.requireNonNull(devLogin, "devLogin");
        Objects.requireNonNull(jwtProvider, "jwtProvider");
        if (jwtProvider.isPresent() && jwtSecret.isPresent()) {
            throw new IllegalArgumentException("tokens are checked with one kind of key: give a JWT secret "
                    + "(--jwt-secret-file) or an identity provider (--jwt-jwks-url, --jwt-public-key-file), not both");
        }
        if (jwtProvider.isPresent() && devLogin.orElse(false)) {
            throw new IllegalArgumentException("--dev-login=true cannot go with an identity provider: this server holds "
                    + "no key to sign a token with");
        }
        if (devLogin.isEmpty() && jwtSecret.isEmpty() && jwtProvider.isEmpty() && !isLoopback(host)) {
            throw new IllegalArgumentException("dev login lets anyone sign in as anyone, so it is on by default only "
                    + "for a loopback host, not " + host + ". Give --dev-login=true to run it there anyway, or "
                    + "configure a signing secret (--jwt-secret-file) or an identity provider (--jwt-jwks-url)");
        }
        if (tokenLifetime.isNegative() || tokenLifetime.isZero()) {
            throw new IllegalArgumentException("the token lifetime must be positive, not " + tokenLifetime);
        }
        if (maxRequestBytes < 1024) {
            throw new IllegalArgumentException("the request size limit must be at least 1024 bytes, not " + maxRequestBytes);
        }
        if (maintenance.isNegative() || maintenance.isZero()) {
            throw new IllegalArgumentException("the maintenance interval must be positive, not " + maintenance);
        }
        if (maxLiveConnections < 1) {
            throw new IllegalArgumentException("live connections per user must be at least 1, not " + maxLiveConnections);
        }
        if (maxUnsentBytes < 1024) {
            throw new IllegalArgumentException("the unsent bytes per live connection must be at least 1024, not "
                    + maxUnsentBytes);
        }
        if (headerTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("the header timeout must be at least a millisecond, not " + headerTimeout);
        }
        if (maxConnectionsPerAddress < 1) {
            throw new IllegalArgumentException("connections per client address must be at least 1, not "
                    + maxConnectionsPerAddress);
        }
        if (storeReadings.toMillis() < 1) {
            throw new IllegalArgumentException("the store readings' interval must be at least a millisecond, not "
                    + storeReadings);
        }
        Objects.requireNonNull(otlpEndpoint, "otlpEndpoint").ifPresent(ServerConfig::checkOtlpEndpoint);
        if (drainTimeout.isNegative()) {
            throw new IllegalArgumentException("the drain timeout must not be negative, not " + drainTimeout);
        }
    }

    /** Loopback on 8080, dev login on, a secret made up per process: a laptop's server. */
    public static ServerConfig defaults() {
        return new ServerConfig("127.0.0.1", DEFAULT_PORT, Optional.empty(), Optional.empty(), Optional.empty(),
                Tokens.DEFAULT_LIFETIME,
                HttpSettings.DEFAULT_MAX_REQUEST_BYTES, Duration.ofSeconds(30), HttpSettings.DEFAULT_MAX_LIVE_CONNECTIONS,
                HttpSettings.DEFAULT_MAX_UNSENT_BYTES, HttpSettings.DEFAULT_HEADER_TIMEOUT,
                HttpSettings.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, HttpSettings.DEFAULT_STORE_READINGS_EVERY,
                Optional.empty(), HttpSettings.DEFAULT_STOP_TIMEOUT);
    }

    /**
     * The endpoint as an operator writes it: empty or blank for none; anything else must be an http
     * or https URL, or it is refused in one line.
     */
    public static Optional<URI> otlpEndpoint(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            URI endpoint = new URI(value.strip());
            checkOtlpEndpoint(endpoint);
            return Optional.of(endpoint);
        } catch (URISyntaxException e) {
            throw notAnOtlpEndpoint(value);
        }
    }

    private static void checkOtlpEndpoint(URI endpoint) {
        boolean web = "http".equalsIgnoreCase(endpoint.getScheme()) || "https".equalsIgnoreCase(endpoint.getScheme());
        if (!web || endpoint.getHost() == null) {
            throw notAnOtlpEndpoint(endpoint.toString());
        }
    }

    private static IllegalArgumentException notAnOtlpEndpoint(String value) {
        return new IllegalArgumentException("the OTLP endpoint must be an http or https URL such as "
                + "http://collector:4318/v1/traces, not " + value);
    }

    public boolean devLoginOn() {
        return devLogin.orElse(jwtSecret.isEmpty() && jwtProvider.isEmpty());
    }

    /**
     * Whether {@code host} is known to reach this machine alone: {@code localhost} or a loopback address
     * literal. Any other name is not looked up, since it may resolve to anything, so it counts as not.
     */
    static boolean isLoopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        boolean addressLiteral = literal.contains(":") || (!literal.isEmpty() && literal.matches("[0-9.]+"));
        if (!addressLiteral) {
            return false;
        }
        try {
            // An address literal is parsed, never resolved.
            return InetAddress.getByName(literal).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    public ServerConfig withHost(String value) {
        return new ServerConfig(value, port, jwtSecret, devLogin, jwtProvider, tokenLifetime,
                maxRequestBytes, maintenance, maxLiveConnections, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress,
                storeReadings, otlpEndpoint, drainTimeout);
    }

    public ServerConfig withPort(int value) {
        return new ServerConfig(host, value, jwtSecret, devLogin, jwtProvider, tokenLifetime,
                maxRequestBytes, maintenance, maxLiveConnections, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress,
                storeReadings, otlpEndpoint, drainTimeout);
    }

    public ServerConfig withJwtSecret(String value) {
        return new ServerConfig(host, port, Optional.of(value), devLogin, jwtProvider, tokenLifetime,
                maxRequestBytes, maintenance, maxLiveConnections, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress,
                storeReadings, otlpEndpoint, drainTimeout);
    }

    public ServerConfig withJwtProvider(JwtProvider value) {
        return new ServerConfig(host, port, jwtSecret, devLogin, Optional.of(value), tokenLifetime, maxRequestBytes,
                maintenance, maxLiveConnections, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress, storeReadings,
                otlpEndpoint, drainTimeout);
    }

    public ServerConfig withDevLogin(boolean value) {
        return new ServerConfig(host, port, jwtSecret, Optional.of(value), jwtProvider, tokenLifetime,
                maxRequestBytes, maintenance, maxLiveConnections, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress,
                storeReadings, otlpEndpoint, drainTimeout);
    }

    public ServerConfig withMaxLiveConnections(int value) {
        return new ServerConfig(host, port, jwtSecret, devLogin, jwtProvider, tokenLifetime, maxRequestBytes, maintenance,
                value, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress, storeReadings, otlpEndpoint, drainTimeout);
    }

    public ServerConfig withMaintenance(Duration value) {
        return new ServerConfig(host, port, jwtSecret, devLogin, jwtProvider, tokenLifetime, maxRequestBytes, value,
                maxLiveConnections, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress, storeReadings, otlpEndpoint,
                drainTimeout);
    }

    public ServerConfig withMaxConnectionsPerAddress(int value) {
        return new ServerConfig(host, port, jwtSecret, devLogin, jwtProvider, tokenLifetime, maxRequestBytes, maintenance,
                maxLiveConnections, maxUnsentBytes, headerTimeout, value, storeReadings, otlpEndpoint, drainTimeout);
    }

    public ServerConfig withStoreReadings(Duration value) {
        return new ServerConfig(host, port, jwtSecret, devLogin, jwtProvider, tokenLifetime, maxRequestBytes, maintenance,
                maxLiveConnections, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress, value, otlpEndpoint,
                drainTimeout);
    }

    public ServerConfig withOtlpEndpoint(URI value) {
        return new ServerConfig(host, port, jwtSecret, devLogin, jwtProvider, tokenLifetime, maxRequestBytes, maintenance,
                maxLiveConnections, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress, storeReadings,
                Optional.of(value), drainTimeout);
    }

    public ServerConfig withDrainTimeout(Duration value) {
        return new ServerConfig(host, port, jwtSecret, devLogin, jwtProvider, tokenLifetime, maxRequestBytes, maintenance,
                maxLiveConnections, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress, storeReadings,
                otlpEndpoint, value);
    }
}
