package dev.pigeonhole.adapter.redis.redisson;

import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.RedisTls;
import io.netty.channel.epoll.Epoll;
import org.redisson.config.BaseConfig;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;
import org.redisson.config.SingleServerConfig;
import org.redisson.config.SslVerificationMode;
import org.redisson.config.SubscriptionMode;
import org.redisson.config.TransportMode;


/** Turns {@link RedisSettings} into Redisson's {@link Config}. */
final class RedissonSetup {

    /**
     * Connections a node's pool keeps open at idle. Redisson's default is 24 per node (and 24
     * more per replica): a cluster of three masters and three replicas would hold 144 at idle for
     * a server that may be doing nothing. The pool grows to {@link RedisSettings#poolSize()} under
     * load and shrinks back after ten idle seconds.
     */
    static final int IDLE_CONNECTIONS = 2;

    private RedissonSetup() {
    }

    static Config config(RedisSettings settings) {
        Config config = new Config();
        // Netty's native epoll where its library loads (this module ships it for Linux on x86-64),
        // as Lettuce takes it by itself, so that the two Netty clients are compared on one transport.
        if (Epoll.isAvailable()) {
            config.setTransportMode(TransportMode.EPOLL);
        }
        config.setTcpKeepAlive(true);
        config.setTcpNoDelay(true);
        // Set once on the Config, Redisson signs in with them on every connection to every node,
        // and so do the driver's own subscription connections (RedissonNodeConnection).
        RedisSettings.Credentials credentials = settings.endpoint().credentials();
        if (!credentials.user().isEmpty()) {
            config.setUsername(credentials.user());
        }
        if (credentials.present()) {
            config.setPassword(credentials.password());
        }
        switch (settings.endpoint()) {
            case RedisSettings.Single single -> single(config, settings, single);
            case RedisSettings.Cluster cluster -> {
                ClusterServersConfig servers = config.useClusterServers();
                String scheme = cluster.tls().enabled() ? "rediss://" : "redis://";
                cluster.seeds().forEach(seed -> servers.addNodeAddress(scheme + seed.host() + ":" + seed.port()));
                common(servers, settings);
                servers.setMasterConnectionPoolSize(settings.poolSize());
                servers.setMasterConnectionMinimumIdleSize(Math.min(IDLE_CONNECTIONS, settings.poolSize()));
                // Every call goes to a master; a replica's pool only has to exist.
                servers.setReadMode(ReadMode.MASTER);
                servers.setSubscriptionMode(SubscriptionMode.MASTER);
                servers.setSlaveConnectionMinimumIdleSize(0);
                servers.setSlaveConnectionPoolSize(1);
                servers.setSubscriptionConnectionMinimumIdleSize(0);
                servers.setSubscriptionConnectionPoolSize(1);
            }
        }
        return config;
    }

    private static void single(Config config, RedisSettings settings, RedisSettings.Single single) {
        SingleServerConfig server = config.useSingleServer();
        String host = single.host().contains(":") ? "[" + single.host() + "]" : single.host();
        server.setAddress((single.tls().enabled() ? "rediss" : "redis") + "://" + host + ":" + single.port());
        server.setDatabase(single.database());
        common(server, settings);
        server.setConnectionPoolSize(settings.poolSize());
        server.setConnectionMinimumIdleSize(Math.min(IDLE_CONNECTIONS, settings.poolSize()));
        // The driver's subscriptions have connections of their own (RedissonPubSub): Redisson's
        // subscription pool stays empty.
        server.setSubscriptionConnectionMinimumIdleSize(0);
        server.setSubscriptionConnectionPoolSize(1);
    }

    /**
     * What every node's connections share. No retries: Redisson would repeat a call that timed
     * out, which may run a function twice. The adapter repeats only a call that cannot have run
     * (a missing function, {@code FunctionLibrary.loadingOnMiss}); Redisson still follows a
     * MOVED or ASK, which is a redirection, not an attempt.
     */
    private static void common(BaseConfig<?> servers, RedisSettings settings) {
        servers.setClientName(settings.clientName());
        servers.setConnectTimeout(millis(settings.connectTimeout().toMillis()));
        servers.setTimeout(millis(settings.commandTimeout().toMillis()));
        servers.setRetryAttempts(0);
        RedisSettings.Tls tls = settings.endpoint().tls();
        if (tls.enabled()) {
            RedisTls material = RedisTls.of(tls);
            servers.setSslTrustManagerFactory(material.trust());
            material.keys().ifPresent(servers::setSslKeyManagerFactory);
            // STRICT: trusted, and issued for the host connected to.
            servers.setSslVerificationMode(SslVerificationMode.STRICT);
        }
    }

    private static int millis(long millis) {
        return (int) Math.min(Integer.MAX_VALUE, millis);
    }
}
