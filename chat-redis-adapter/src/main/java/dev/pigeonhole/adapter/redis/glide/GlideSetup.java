package dev.pigeonhole.adapter.redis.glide;

import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.RedisTls;
import glide.api.BaseClient;
import glide.api.GlideClient;
import glide.api.GlideClusterClient;
import glide.api.logging.Logger;
import glide.api.models.configuration.AdvancedGlideClientConfiguration;
import glide.api.models.configuration.AdvancedGlideClusterClientConfiguration;
import glide.api.models.configuration.BaseSubscriptionConfiguration.MessageCallback;
import glide.api.models.configuration.ClusterSubscriptionConfiguration;
import glide.api.models.configuration.GlideClientConfiguration;
import glide.api.models.configuration.GlideClusterClientConfiguration;
import glide.api.models.configuration.NodeAddress;
import glide.api.models.configuration.ProtocolVersion;
import glide.api.models.configuration.ServerCredentials;
import glide.api.models.configuration.StandaloneSubscriptionConfiguration;
import glide.api.models.configuration.TlsAdvancedConfiguration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Turns {@link RedisSettings} into GLIDE's configuration and starts a client: a {@code GlideClient}
 * for a single node, a {@code GlideClusterClient} for a cluster.
 *
 * <p>Connected lazily, on the first request: GLIDE creates no client that cannot connect, and says
 * why only to its log ("Connection refused" whatever the cause); a lazy client's first request
 * fails with the reason instead (WRONGPASS, NOAUTH), and the next request tries again.
 *
 * <p>RESP3, because GLIDE receives pub/sub messages as RESP3 pushes: a subscription client stays
 * an ordinary connection that also answers commands (the driver asks it {@code CLIENT ID} to learn
 * of a reconnect). Function replies do not change with it: Redis converts a Lua value to RESP2's
 * shapes unless the function asks otherwise, so a Lua {@code false} is still a nil.
 */
final class GlideSetup {

    /** How often GLIDE compares what a subscription client should hold with what Redis confirmed. */
    private static final int RECONCILIATION_MILLIS = 200;

    static {
        // The core writes its own lines to the console, outside SLF4J; its warnings (a connection
        // attempt that failed, one that was lost) repeat what the driver already says in its own
        // words through RedisFailures, so only its errors are kept.
        Logger.setLoggerConfig(Logger.Level.ERROR);
    }

    private GlideSetup() {
    }

    /** A client for calls; {@code callback} non-null makes it a subscription client delivering there. */
    static CompletableFuture<? extends BaseClient> connect(RedisSettings settings, MessageCallback callback) {
        int requestTimeout = millis(settings.commandTimeout().toMillis());
        int connectTimeout = millis(settings.connectTimeout().toMillis());
        return switch (settings.endpoint()) {
            case RedisSettings.Single single -> {
                var builder = GlideClientConfiguration.builder()
                        .address(NodeAddress.builder().host(single.host()).port(single.port()).build())
                        .useTLS(single.tls().enabled())
                        .databaseId(single.database())
                        .requestTimeout(requestTimeout)
                        .clientName(settings.clientName())
                        .protocol(ProtocolVersion.RESP3)
                        .lazyConnect(true);
                var advanced = AdvancedGlideClientConfiguration.builder().connectionTimeout(connectTimeout);
                tls(settings).ifPresent(advanced::tlsAdvancedConfiguration);
                credentials(settings).ifPresent(builder::credentials);
                if (callback != null) {
                    builder.subscriptionConfiguration(StandaloneSubscriptionConfiguration.builder().callback(callback).build());
                    advanced.pubsubReconciliationIntervalMs(RECONCILIATION_MILLIS);
                }
                yield GlideClient.createClient(builder.advancedConfiguration(advanced.build()).build());
            }
            case RedisSettings.Cluster cluster -> {
                var builder = GlideClusterClientConfiguration.builder()
                        .addresses(cluster.seeds().stream()
                                .map(seed -> NodeAddress.builder().host(seed.host()).port(seed.port()).build()).toList())
                        .useTLS(cluster.tls().enabled())
                        .requestTimeout(requestTimeout)
                        .clientName(settings.clientName())
                        .protocol(ProtocolVersion.RESP3)
                        .lazyConnect(true);
                credentials(settings).ifPresent(builder::credentials);
                var advanced = AdvancedGlideClusterClientConfiguration.builder().connectionTimeout(connectTimeout);
                tls(settings).ifPresent(advanced::tlsAdvancedConfiguration);
                if (callback != null) {
                    builder.subscriptionConfiguration(ClusterSubscriptionConfiguration.builder().callback(callback).build());
                    advanced.pubsubReconciliationIntervalMs(RECONCILIATION_MILLIS);
                }
                yield GlideClusterClient.createClient(builder.advancedConfiguration(advanced.build()).build());
            }
        };
    }

    /**
     * The CA to trust instead of the system's, as GLIDE takes it: PEM bytes. GLIDE's core verifies
     * the host name by itself. It has no setting for a client certificate, so one is refused
     * rather than left unused, with the server then refusing a client it expected to present one.
     */
    private static Optional<TlsAdvancedConfiguration> tls(RedisSettings settings) {
        RedisSettings.Tls tls = settings.endpoint().tls();
        if (tls.cert() != null) {
            throw new IllegalArgumentException("the GLIDE client cannot present a Redis TLS client certificate "
                    + "(--redis-tls-cert): use another --redis-client");
        }
        if (!tls.enabled() || tls.ca() == null) {
            return Optional.empty();
        }
        return Optional.of(TlsAdvancedConfiguration.builder().rootCertificates(RedisTls.caPem(tls)).build());
    }

    /** What the core signs in with on every connection it opens, to each node, for calls and subscriptions alike. */
    private static Optional<ServerCredentials> credentials(RedisSettings settings) {
        RedisSettings.Credentials credentials = settings.endpoint().credentials();
        if (!credentials.present()) {
            return Optional.empty();
        }
        var builder = ServerCredentials.builder().password(credentials.password());
        if (!credentials.user().isEmpty()) {
            builder.username(credentials.user());
        }
        return Optional.of(builder.build());
    }

    private static int millis(long value) {
        return (int) Math.min(Integer.MAX_VALUE, value);
    }
}
