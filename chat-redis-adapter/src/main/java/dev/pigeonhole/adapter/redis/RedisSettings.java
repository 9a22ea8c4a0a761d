package dev.pigeonhole.adapter.redis;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where Redis is and how long to wait for it; each driver turns this into its own client's
 * configuration.
 *
 * @param endpoint       a single node or a cluster
 * @param connectTimeout how long a connection attempt may take (default 2 s)
 * @param commandTimeout how long a call may wait for its answer before it counts as unavailable
 *                       (default 2 s)
 * @param clientName     sent with CLIENT SETNAME on every connection, so an operator (or a test)
 *                       can find this process's connections in CLIENT LIST
 * @param poolSize       the most connections a pooling client (Jedis, Redisson) opens, per node;
 *                       a caller finding all of them busy waits. Lettuce multiplexes every
 *                       caller over one connection and needs none
 */
public record RedisSettings(Endpoint endpoint, Duration connectTimeout, Duration commandTimeout, String clientName,
                            int poolSize) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    /**
     * Requests run on virtual threads, so hundreds may call at once; a handful of connections
     * would make most of them wait out the timeout. Redis serves thousands of connections.
     */
    public static final int DEFAULT_POOL_SIZE = 128;
    private static final Pattern CLIENT_NAME = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    public RedisSettings {
        Objects.requireNonNull(endpoint, "endpoint");
        positive("connectTimeout", connectTimeout);
        positive("commandTimeout", commandTimeout);
        Objects.requireNonNull(clientName, "clientName");
        if (!CLIENT_NAME.matcher(clientName).matches()) {
            throw new IllegalArgumentException("a client name is 1 to 64 of A-Z a-z 0-9 . _ : -, not '" + clientName + "'");
        }
        if (poolSize < 1) {
            throw new IllegalArgumentException("the pool size must be at least 1, not " + poolSize);
        }
    }

    /** Default timeouts and the client name {@code pigeonhole}. */
    public static RedisSettings of(Endpoint endpoint) {
        return new RedisSettings(endpoint, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT, "pigeonhole", DEFAULT_POOL_SIZE);
    }

    public RedisSettings withTimeouts(Duration connect, Duration command) {
        return new RedisSettings(endpoint, connect, command, clientName, poolSize);
    }

    public RedisSettings withClientName(String name) {
        return new RedisSettings(endpoint, connectTimeout, commandTimeout, name, poolSize);
    }

    public RedisSettings withPoolSize(int value) {
        return new RedisSettings(endpoint, connectTimeout, commandTimeout, clientName, value);
    }

    private static void positive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, not " + value);
        }
    }

    /**
     * Who the adapter signs in to Redis as, on every connection it makes: an ACL user and its
     * password. An empty user with a password is Redis's {@code default} user ({@code requirepass});
     * both empty sign in as nobody. {@link #toString()} never shows the password.
     */
    public record Credentials(String user, String password) {

        public static final Credentials NONE = new Credentials("", "");

        public Credentials {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(password, "password");
            if (!user.isEmpty() && password.isEmpty()) {
                throw new IllegalArgumentException("the Redis user '" + user + "' needs a password");
            }
        }

        /** True when there is anything to sign in with. */
        public boolean present() {
            return !password.isEmpty();
        }

        @Override
        public String toString() {
            return present() ? (user.isEmpty() ? "default" : user) + ":****" : "none";
        }
    }

    /**
     * TLS to Redis: on or off, and the PEM files it uses. Without a CA the JDK's default trust
     * store decides whom to trust; a client certificate and its key (PKCS #8) come together or not
     * at all. The server's host name is always verified. {@link RedisTls} reads the files.
     *
     * @param enabled whether connections are encrypted
     * @param ca      the certificate of the CA that signed the server's, or null
     * @param cert    this client's certificate, for a server that asks for one, or null
     * @param key     the private key of {@code cert}, or null
     */
    public record Tls(boolean enabled, Path ca, Path cert, Path key) {

        public static final Tls OFF = new Tls(false, null, null, null);

        public Tls {
            if ((cert == null) != (key == null)) {
                throw new IllegalArgumentException("a Redis client certificate and its key come together: give both "
                        + "--redis-tls-cert and --redis-tls-key, or neither");
            }
            if (!enabled && (ca != null || cert != null)) {
                throw new IllegalArgumentException("Redis TLS files are given but TLS is off: add --redis-tls "
                        + "or use a rediss:// URL");
            }
        }

        /** The same files, TLS on. */
        public Tls on() {
            return new Tls(true, ca, cert, key);
        }
    }

    /** Where to connect, and as whom. */
    public sealed interface Endpoint {

        /** Who every connection signs in as. */
        Credentials credentials();

        /** The same place, signing in with {@code credentials}. */
        Endpoint withCredentials(Credentials credentials);

        /** Whether, and with which certificates, connections are encrypted. */
        Tls tls();

        /** The same place, over {@code tls}. */
        Endpoint withTls(Tls tls);

        /** Parses {@code redis://[[user]:password@]host[:port][/db]}. */
        static Single single(String url) {
            return new Single(URI.create(url));
        }

        /** Parses {@code host:port,host:port,...}: any reachable node of the cluster will do. */
        static Cluster cluster(String seeds) {
            return new Cluster(List.of(seeds.split(",")).stream().map(String::strip).filter(s -> !s.isEmpty())
                    .map(HostAndPort::parse).toList());
        }
    }

    /**
     * One Redis server, by URL ({@code redis://} or {@code rediss://} for TLS). The credentials come
     * from the URL's user info, or are given apart from it; never both. A {@code rediss://} URL
     * turns TLS on; the certificates come with {@link #withTls}.
     */
    public record Single(URI url, Credentials credentials, Tls tls) implements Endpoint {

        /** The node at {@code url}, signing in with what its user info says. */
        public Single(URI url) {
            this(url, fromUserInfo(url));
        }

        public Single(URI url, Credentials credentials) {
            this(url, credentials, Tls.OFF);
        }

        public Single {
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(credentials, "credentials");
            Objects.requireNonNull(tls, "tls");
            if ("rediss".equals(url.getScheme()) && !tls.enabled()) {
                tls = tls.on();
            }
            if (url.getRawUserInfo() != null && !credentials.equals(fromUserInfo(url))) {
                throw new IllegalArgumentException("a Redis URL with a user or password in it takes no other credentials");
            }
            if (!"redis".equals(url.getScheme()) && !"rediss".equals(url.getScheme())) {
                throw new IllegalArgumentException("a Redis URL starts with redis:// or rediss://, not '" + url + "'");
            }
            if (url.getHost() == null) {
                throw new IllegalArgumentException("a Redis URL names a host: '" + url + "'");
            }
        }

        /** The port in the URL, or Redis's 6379. */
        public int port() {
            return url.getPort() == -1 ? 6379 : url.getPort();
        }

        /** The host, without the brackets around an IPv6 address. */
        public String host() {
            String host = url.getHost();
            return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        }

        /** The database the path names ({@code redis://host/2}), 0 without one. */
        public int database() {
            String path = url.getPath();
            if (path == null || path.isEmpty() || "/".equals(path)) {
                return 0;
            }
            try {
                int database = Integer.parseInt(path.substring(1));
                if (database >= 0) {
                    return database;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("the path of a Redis URL is a database number, not '" + path + "'");
        }

        /** The user to sign in as, or "" for Redis's default user. */
        public String user() {
            return credentials.user();
        }

        /** The password to sign in with, or "" for none. */
        public String password() {
            return credentials.password();
        }

        @Override
        public Single withCredentials(Credentials value) {
            return new Single(url, value, tls);
        }

        @Override
        public Single withTls(Tls value) {
            return new Single(url, credentials, value);
        }

        /**
         * What a URL's user info says: {@code user:password}, or a password alone without a colon,
         * as in {@code redis://secret@host}.
         */
        private static Credentials fromUserInfo(URI url) {
            String userInfo = url.getRawUserInfo();
            if (userInfo == null) {
                return Credentials.NONE;
            }
            int colon = userInfo.indexOf(':');
            return colon < 0
                    ? new Credentials("", decode(userInfo))
                    : new Credentials(decode(userInfo.substring(0, colon)), decode(userInfo.substring(colon + 1)));
        }

        /** Percent-decoding only: URLDecoder would also turn '+' into a space, which a URI does not. */
        private static String decode(String raw) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
            for (int i = 0; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c == '%' && i + 2 < raw.length()) {
                    out.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
                    i += 2;
                } else {
                    int codePoint = raw.codePointAt(i);
                    out.writeBytes(Character.toString(codePoint).getBytes(StandardCharsets.UTF_8));
                    i += Character.charCount(codePoint) - 1;
                }
            }
            return out.toString(StandardCharsets.UTF_8);
        }

        /** Where it is, without the password a URL may carry. */
        @Override
        public String toString() {
            return (tls.enabled() ? "rediss" : "redis") + "://" + url.getHost() + ":" + port()
                    + (url.getPath() == null ? "" : url.getPath());
        }
    }

    /**
     * A Redis Cluster, found through any of its seed nodes; every node takes the same credentials,
     * and, with TLS on, is trusted by the same CA.
     */
    public record Cluster(List<HostAndPort> seeds, Credentials credentials, Tls tls) implements Endpoint {

        /** A cluster that asks no one to sign in. */
        public Cluster(List<HostAndPort> seeds) {
            this(seeds, Credentials.NONE);
        }

        public Cluster(List<HostAndPort> seeds, Credentials credentials) {
            this(seeds, credentials, Tls.OFF);
        }

        public Cluster {
            seeds = List.copyOf(seeds);
            Objects.requireNonNull(credentials, "credentials");
            Objects.requireNonNull(tls, "tls");
            if (seeds.isEmpty()) {
                throw new IllegalArgumentException("a cluster needs at least one seed node host:port");
            }
        }

        @Override
        public Cluster withCredentials(Credentials value) {
            return new Cluster(seeds, value, tls);
        }

        @Override
        public Cluster withTls(Tls value) {
            return new Cluster(seeds, credentials, value);
        }

        @Override
        public String toString() {
            return "cluster " + String.join(",", seeds.stream().map(HostAndPort::toString).toList());
        }
    }

    public record HostAndPort(String host, int port) {
        public HostAndPort {
            Objects.requireNonNull(host, "host");
            if (host.isBlank() || port < 1 || port > 65535) {
                throw new IllegalArgumentException("not a host and port: " + host + ":" + port);
            }
        }

        public static HostAndPort parse(String text) {
            int colon = text.lastIndexOf(':');
            if (colon <= 0 || colon == text.length() - 1) {
                throw new IllegalArgumentException("expected host:port, got '" + text + "'");
            }
            try {
                return new HostAndPort(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected host:port with a numeric port, got '" + text + "'");
            }
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }
}
