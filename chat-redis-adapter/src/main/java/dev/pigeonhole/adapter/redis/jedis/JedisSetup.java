package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.RedisSettings;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.SslOptions;

/** Turns {@link RedisSettings} into Jedis configuration. */
final class JedisSetup {

    private JedisSetup() {
    }

    static JedisClientConfig clientConfig(RedisSettings settings) {
        DefaultJedisClientConfig.Builder builder = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(millis(settings.connectTimeout()))
                .socketTimeoutMillis(millis(settings.commandTimeout()))
                .clientName(settings.clientName())
                // RESP2 keeps replies to what the driver contract speaks of: under RESP3 a Lua
                // false would arrive as a boolean instead of nil.
                .protocol(RedisProtocol.RESP2);
        if (settings.endpoint() instanceof RedisSettings.Single single) {
            URI url = single.url();
            builder.database(database(url));
            if ("rediss".equals(url.getScheme())) {
                // The JDK's trust store and full verification, host name included.
                builder.sslOptions(SslOptions.defaults());
            }
            String userInfo = url.getRawUserInfo();
            if (userInfo != null && !userInfo.isEmpty()) {
                int colon = userInfo.indexOf(':');
                // Without a colon the whole user info is a password, as with redis://secret@host.
                String user = colon < 0 ? "" : decode(userInfo.substring(0, colon));
                String password = decode(colon < 0 ? userInfo : userInfo.substring(colon + 1));
                if (!user.isEmpty()) {
                    builder.user(user);
                }
                if (!password.isEmpty()) {
                    builder.password(password);
                }
            }
        }
        return builder.build();
    }

    static ConnectionPoolConfig poolConfig(RedisSettings settings) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(settings.poolSize());
        pool.setMaxIdle(settings.poolSize());
        pool.setMinIdle(0);
        // The default waits forever for a free connection; a caller must instead learn within
        // the command timeout that the store cannot serve it.
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(settings.commandTimeout());
        pool.setTestWhileIdle(true);
        pool.setTimeBetweenEvictionRuns(Duration.ofSeconds(30));
        pool.setJmxEnabled(false);
        return pool;
    }

    static HostAndPort hostAndPort(RedisSettings.Single single) {
        return new HostAndPort(single.url().getHost(), single.port());
    }

    static Set<HostAndPort> seeds(RedisSettings.Cluster cluster) {
        Set<HostAndPort> seeds = new LinkedHashSet<>();
        for (RedisSettings.HostAndPort seed : cluster.seeds()) {
            seeds.add(new HostAndPort(seed.host(), seed.port()));
        }
        return seeds;
    }

    private static int database(URI url) {
        String path = url.getPath();
        if (path == null || path.isEmpty() || "/".equals(path)) {
            return 0;
        }
        try {
            int db = Integer.parseInt(path.substring(1));
            if (db < 0) {
                throw new NumberFormatException();
            }
            return db;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the path of a Redis URL is a database number, not '" + path + "'");
        }
    }

    private static int millis(Duration duration) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, duration.toMillis()));
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
}
