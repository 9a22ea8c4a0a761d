package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.RedisFailure;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.RedisTls;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.MaintNotificationsConfig;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.NettyCustomizer;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Owns the Lettuce client of one {@link LettuceDriver} and its one shared command connection.
 * Lettuce multiplexes every caller's commands onto that connection and pipelines them, so one is
 * all a process needs; a second one would only add a socket.
 *
 * <p>The connection is first attempted in the background while the driver is built, and a failed
 * attempt is simply repeated by the next call, so the driver can be built while Redis is still
 * starting. Once connected, Lettuce keeps the connection and reconnects it by itself.
 *
 * @param <C> the connection type: single node or cluster
 */
abstract sealed class Connector<C extends StatefulConnection<String, String>> permits NodeConnector, ClusterConnector {

    private static final Logger LOG = LoggerFactory.getLogger(Connector.class);
    /** Handshakes tried while Redis's reason for refusing one keeps getting lost. */
    private static final int ATTEMPTS_FOR_A_REASON = 3;

    final RedisSettings settings;
    final ClientResources resources;
    private final AtomicReference<CompletableFuture<C>> connection = new AtomicReference<>();
    private volatile BaseRedisAsyncCommands<String, String> commands;
    private volatile LettuceTransport transport;
    private volatile boolean closed;

    /**
     * The longest Lettuce waits between two reconnect attempts. Its default backs off to 30 s, so
     * after an outage of a minute a server that is back could go unused for half a minute more.
     */
    private static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(2);

    /**
     * @param metrics where to record every command's latency, or null for nowhere: one timer per
     *                command type and Redis node ({@code lettuce_command_completion_seconds} and
     *                {@code _firstresponse_}), never per key, so the series stay as few as the
     *                commands the driver sends (FCALL, PING, the pub/sub ones)
     */
    Connector(RedisSettings settings, MeterRegistry metrics) {
        this.settings = settings;
        ClientResources.Builder builder = DefaultClientResources.builder();
        if (metrics != null) {
            // Count, sum and max per series; percentiles are the dashboard's to compute, not one
            // more series per quantile here.
            builder.commandLatencyRecorder(new MicrometerCommandLatencyRecorder(metrics,
                    MicrometerOptions.builder().histogram(false).targetPercentiles(new double[0]).build()));
        }
        // Jittered, so that many processes losing one Redis do not all come back in step.
        this.resources = builder
                .reconnectDelay(Delay.equalJitter(Duration.ZERO, MAX_RECONNECT_DELAY, 1, TimeUnit.MILLISECONDS))
                .nettyCustomizer(new NettyCustomizer() {
                    @Override
                    public void afterChannelInitialized(Channel channel) {
                        transport = LettuceTransport.of(channel);
                        LettuceTransport.nameOnce(channel);
                    }
                })
                .build();
    }

    static Connector<?> of(RedisSettings settings) {
        return of(settings, null);
    }

    static Connector<?> of(RedisSettings settings, MeterRegistry metrics) {
        return switch (settings.endpoint()) {
            case RedisSettings.Single single -> NodeConnector.create(settings, single, metrics);
            case RedisSettings.Cluster cluster -> new ClusterConnector(settings, cluster, metrics);
        };
    }

    /**
     * What every connection of the driver shares.
     * <ul>
     * <li>RESP3, pinned rather than negotiated. Over RESP2 a subscription connection matches
     * replies to commands by position, and a SUBSCRIBE of several channels (which is how Lettuce
     * resubscribes after a reconnect) answers once per channel: the extra confirmations complete
     * the commands queued behind it, so no reply on that connection can be trusted until they
     * have drained. RESP3 sends confirmations as push messages, matched by kind, and leaves
     * ordinary replies in order. What RESP3 changes in function replies (booleans, doubles, maps)
     * {@link ReplyOutput} maps back to the RESP2 shapes.</li>
     * <li>Reject while disconnected: Lettuce's default buffers commands until the connection is
     * back, so a caller would wait out its timeout and a buffered write could run long after the
     * caller gave up. Rejecting makes an outage a prompt {@link StoreUnavailableException}, and
     * also fails the commands in flight when a connection drops instead of replaying them.</li>
     * <li>Maintenance notifications (managed Redis announcing failovers over RESP3) are off,
     * so that a reconnect is a plain reconnect.</li>
     * </ul>
     */
    static <B extends ClientOptions.Builder> B configure(B builder, RedisSettings settings) {
        builder.protocolVersion(ProtocolVersion.RESP3)
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .maintNotificationsConfig(MaintNotificationsConfig.disabled())
                .socketOptions(SocketOptions.builder().connectTimeout(settings.connectTimeout()).keepAlive(true).build())
                .timeoutOptions(TimeoutOptions.enabled(settings.commandTimeout()));
        RedisSettings.Tls tls = settings.endpoint().tls();
        if (tls.enabled()) {
            RedisTls material = RedisTls.of(tls);
            SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider().trustManager(material.trust());
            material.keys().ifPresent(ssl::keyManager);
            builder.sslOptions(ssl.build());
        }
        return builder;
    }

    /**
     * A node's URI with what every connection sends on connect: its credentials (in HELLO's AUTH),
     * its name, and the timeout of the handshake.
     */
    static RedisURI.Builder uri(RedisSettings settings, String host, int port) {
        RedisURI.Builder builder = RedisURI.builder()
                .withHost(host)
                .withPort(port)
                .withTimeout(settings.commandTimeout())
                .withClientName(settings.clientName());
        if (settings.endpoint().tls().enabled()) {
            // FULL: the certificate must be trusted and name the host connected to.
            builder.withSsl(true).withVerifyPeer(SslVerifyMode.FULL);
        }
        RedisSettings.Credentials credentials = settings.endpoint().credentials();
        if (!credentials.user().isEmpty()) {
            builder.withAuthentication(credentials.user(), credentials.password());
        } else if (credentials.present()) {
            builder.withPassword(credentials.password().toCharArray());
        }
        return builder;
    }

    /**
     * The transport of the channels this connector's client opened (Lettuce picks it for the
     * whole process: {@link LettuceTransport}), or empty before the first one.
     */
    final Optional<LettuceTransport> transport() {
        return Optional.ofNullable(transport);
    }

    /** Where Redis is, for logs; never shows a password. */
    final String endpoint() {
        return settings.endpoint().toString();
    }

    abstract boolean isCluster();

    abstract AbstractRedisClient client();

    abstract CompletableFuture<C> connect();

    abstract BaseRedisAsyncCommands<String, String> commandsOf(C connection);

    /** True when every node serving the data answered PING. */
    abstract CompletableFuture<Boolean> ping(C connection);

    /** The address of the node that serves the key's slot, or empty if none is known. */
    abstract Optional<String> nodeOf(C connection, String key);

    /** Reads the cluster's slot map afresh; nothing to read on a single node. */
    abstract CompletableFuture<?> refresh();

    /** Every primary's address, host:port, as {@link #nodeOf} names them. */
    abstract List<String> primaries(C connection);

    /** The commands of the connection to the primary at {@code node}, host:port. */
    abstract CompletableFuture<BaseRedisAsyncCommands<String, String>> commandsOn(C connection, String node);

    /** A new subscription connection, the cluster kind on a cluster. */
    abstract CompletableFuture<? extends StatefulRedisPubSubConnection<String, String>> connectPubSub(C connection);

    /**
     * The shared connection's commands, connecting first if needed; {@link StoreUnavailableException}
     * for {@code action} if that fails.
     */
    final BaseRedisAsyncCommands<String, String> commands(LettuceFailures failures, String action, long deadline) {
        BaseRedisAsyncCommands<String, String> ready = commands;
        if (ready != null) {
            return ready;
        }
        C connected = failures.await(connection(), action, deadline);
        ready = commandsOf(connected);
        commands = ready;
        return ready;
    }

    /** {@link #nodeOf(StatefulConnection, String)}, connecting first if needed. */
    final Optional<String> nodeOf(LettuceFailures failures, String key, long deadline) {
        return nodeOf(failures.await(connection(), "the node of " + key, deadline), key);
    }

    /** {@link #primaries(StatefulConnection)}, connecting first if needed. */
    final CompletableFuture<List<String>> primaries() {
        return connection().thenApply(this::primaries);
    }

    /** {@link #commandsOn(StatefulConnection, String)}, connecting first if needed. */
    final CompletableFuture<BaseRedisAsyncCommands<String, String>> commandsOn(String node) {
        return connection().thenCompose(connected -> commandsOn(connected, node));
    }

    final CompletableFuture<Boolean> ping() {
        return connection().thenCompose(this::ping);
    }

    final CompletableFuture<? extends StatefulRedisPubSubConnection<String, String>> connectPubSub() {
        // On a cluster the subscription connection needs the topology the command connection loads.
        return connection().thenCompose(connected -> keepingTheReason(() -> connectPubSub(connected)));
    }

    /**
     * Makes a connection attempt, and up to two more while one lost Redis's reason for refusing
     * it. Lettuce fails a handshake by closing the channel first, and the channel's closing can
     * fail it again ("Connection closed prematurely", or a bare connection failure) before
     * Redis's answer (WRONGPASS, NOAUTH) is passed on. The answer tells a misconfiguration from an
     * outage, and a later attempt carries it; on a busy machine the race can be lost twice, so one
     * retry was not always enough. Only an attempt whose socket was opened (no refusal, timeout or
     * reset from the JDK or from epoll in the chain) is tried again, so an outage costs no second
     * wait; nothing was sent but the handshake, so trying again is harmless.
     */
    private static <T> CompletableFuture<T> keepingTheReason(Supplier<CompletableFuture<T>> attempt) {
        return keepingTheReason(attempt, ATTEMPTS_FOR_A_REASON);
    }

    private static <T> CompletableFuture<T> keepingTheReason(Supplier<CompletableFuture<T>> attempt, int attempts) {
        return attempt.get().exceptionallyCompose(failure -> attempts > 1 && lostTheReason(failure)
                ? keepingTheReason(attempt, attempts - 1)
                : CompletableFuture.failedFuture(failure));
    }

    private static boolean lostTheReason(Throwable failure) {
        List<Throwable> chain = RedisFailure.chain(failure);
        return chain.stream().noneMatch(RedisCommandExecutionException.class::isInstance)
                && chain.stream().anyMatch(RedisConnectionException.class::isInstance)
                && RedisFailure.fromJdk(failure).isEmpty()
                && LettuceFailures.fromEpoll(failure).isEmpty();
    }

    /**
     * The attempt in progress or the connection it made. A failed attempt is replaced by a new one
     * on the next call; concurrent callers share one attempt instead of each opening a socket.
     */
    final CompletableFuture<C> connection() {
        while (true) {
            CompletableFuture<C> current = connection.get();
            if (current != null && !current.isCompletedExceptionally()) {
                return current;
            }
            if (closed) {
                return CompletableFuture.failedFuture(
                        new StoreUnavailableException("the Redis driver for " + endpoint() + " is closed", null));
            }
            CompletableFuture<C> attempt = new CompletableFuture<>();
            if (connection.compareAndSet(current, attempt)) {
                try {
                    keepingTheReason(this::connect).whenComplete((connected, failure) -> {
                        if (failure != null) {
                            LOG.debug("connecting to Redis at {} failed", endpoint(), failure);
                            attempt.completeExceptionally(failure);
                        } else {
                            attempt.complete(connected);
                        }
                    });
                } catch (RuntimeException e) {
                    attempt.completeExceptionally(e);
                }
                return attempt;
            }
        }
    }

    /** Closes every connection the client made, then the event loops. Idempotent. */
    final synchronized void shutdown() {
        if (closed) {
            return;
        }
        closed = true;
        Duration timeout = settings.commandTimeout();
        CompletableFuture<C> current = connection.get();
        if (current != null && current.isDone() && !current.isCompletedExceptionally()) {
            // Closed first, and waited for: a cluster connection closes its node connections and
            // takes them off the client's list, which the client would otherwise close a second
            // time (and warn about each).
            try {
                current.join().closeAsync().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.debug("closing the connection to {} did not finish cleanly", endpoint(), e);
            }
        }
        try {
            client().shutdown(Duration.ZERO, timeout);
        } catch (RuntimeException e) {
            LOG.warn("closing the Lettuce client for {} failed", endpoint(), e);
        }
        try {
            resources.shutdown(0, timeout.toMillis(), TimeUnit.MILLISECONDS).get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("stopping Lettuce's event loops for {} failed", endpoint(), e);
        }
    }
}
