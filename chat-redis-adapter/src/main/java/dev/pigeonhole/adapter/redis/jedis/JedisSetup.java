package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.RedisTls;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisProtocol;

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
            builder.database(single.database());
        }
        RedisSettings.Tls tls = settings.endpoint().tls();
        if (tls.enabled()) {
            // The socket factory carries the trust (the CA file, or the JDK's store) and the client
            // certificate; the parameters make the JDK check the host name against the certificate.
            builder.ssl(true)
                    .sslSocketFactory(RedisTls.of(tls).context().getSocketFactory())
                    .sslParameters(RedisTls.verifyingHost());
        }
        // One client config serves every connection Jedis opens: the pool's, the cluster's to each
        // node it discovers, and the subscriptions'.
        RedisSettings.Credentials credentials = settings.endpoint().credentials();
        if (!credentials.user().isEmpty()) {
            builder.user(credentials.user());
        }
        if (credentials.present()) {
            builder.password(credentials.password());
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

    private static int millis(Duration duration) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, duration.toMillis()));
    }
}
