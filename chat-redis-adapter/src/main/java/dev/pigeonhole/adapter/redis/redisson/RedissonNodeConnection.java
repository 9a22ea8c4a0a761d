package dev.pigeonhole.adapter.redis.redisson;

import dev.pigeonhole.adapter.redis.LostConnections;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.SerialDelivery;
import dev.pigeonhole.adapter.redis.redisson.RedissonPubSub.Key;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import org.redisson.client.ChannelName;
import org.redisson.client.RedisClient;
import org.redisson.client.RedisClientConfig;
import org.redisson.client.RedisPubSubConnection;
import org.redisson.client.RedisPubSubListener;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.pubsub.PubSubType;
import org.redisson.config.MasterSlaveServersConfig;
import org.redisson.connection.ServiceManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

import static dev.pigeonhole.adapter.redis.redisson.RedissonPubSub.subscribing;
import static dev.pigeonhole.adapter.redis.redisson.RedissonPubSub.unsubscribing;

/**
 * One connection to one node: a {@link RedisClient} of its own (so that its connect and
 * disconnect callbacks speak of this connection alone) on the driver's event loops and timer.
 */
final class RedissonNodeConnection implements RedisPubSubListener<Object> {

    private static final Logger LOG = LoggerFactory.getLogger(RedissonNodeConnection.class);

    private final RedissonFailures failures;
    private final LostConnections<RedissonNodeConnection> lost;
    private final BooleanSupplier closed;
    private final SerialDelivery delivery;
    private final PubSubListener listener;
    private final RedisClient client;
    private final Set<Key> wanted = ConcurrentHashMap.newKeySet();
    private final Set<Key> confirmed = ConcurrentHashMap.newKeySet();
    private final Map<Key, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();
    private volatile RedisPubSubConnection connection;

    /**
     * @param cluster whether the driver is on a cluster, where {@code address} names the node;
     *                on a single node the configured address is used as Redisson has it
     * @param closed  whether the subscription this connection belongs to has closed
     */
    RedissonNodeConnection(String address, ServiceManager services, boolean cluster, RedissonFailures failures,
                           LostConnections<RedissonNodeConnection> lost, BooleanSupplier closed,
                           SerialDelivery delivery, PubSubListener listener) {
        this.failures = failures;
        this.lost = lost;
        this.closed = closed;
        this.delivery = delivery;
        this.listener = listener;
        MasterSlaveServersConfig config = services.getConfig();
        RedisClientConfig clientConfig = new RedisClientConfig()
                .setAddress(config.getMasterAddress() != null && !cluster ? config.getMasterAddress()
                        // RedissonSetup sets a trust manager factory exactly when TLS is on.
                        : (config.getSslTrustManagerFactory() != null ? "rediss://" : "redis://") + address)
                .setGroup(services.getGroup())
                .setTimer(services.getTimer())
                .setExecutor(services.getExecutor())
                .setResolverGroup(services.getResolverGroup())
                .setSocketChannelClass(services.getSocketChannelClass())
                .setConnectTimeout(config.getConnectTimeout())
                .setCommandTimeout(config.getTimeout())
                .setUsername(services.getCfg().getUsername())
                .setPassword(services.getCfg().getPassword())
                .setDatabase(config.getDatabase())
                .setClientName(config.getClientName())
                .setKeepAlive(true)
                .setTcpNoDelay(true)
                // TLS as the configured connections have it (RedissonSetup): same trust, same checks.
                .setSslProvider(config.getSslProvider())
                .setSslTrustManagerFactory(config.getSslTrustManagerFactory())
                .setSslKeyManagerFactory(config.getSslKeyManagerFactory())
                .setSslVerificationMode(config.getSslVerificationMode())
                .setDisconnectedListener(where -> disconnected());
        this.client = RedisClient.create(clientConfig);
    }

    void connect(String action) {
        connection = failures.await(client.connectPubSubAsync(), action, failures.deadline());
    }

    boolean wants(Key key) {
        return wanted.contains(key);
    }

    List<Key> sharded() {
        return wanted.stream().filter(key -> key.kind() == PubSubType.SSUBSCRIBE).toList();
    }

    /** Lets go of a channel Redis no longer serves here (its slot moved), without a command. */
    void forget(Key key) {
        wanted.remove(key);
        confirmed.remove(key);
        connection.removeListener(new ChannelName(key.name()), this);
        // Lost, and what it has left is all back (or nothing): it owes no announcement now.
        backIfComplete();
    }

    private void backIfComplete() {
        if (lost.isLost(this) && confirmed.containsAll(wanted)) {
            LOG.debug("a subscription connection to {} is back", failures.endpoint());
            lost.back(this);
        }
    }

    /** Sends the change and returns once Redis confirmed it. */
    void change(Key key, boolean subscribe, String action) {
        if (subscribe ? !wanted.add(key) : !wanted.remove(key)) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        waiting.put(key, done);
        ChannelName name = new ChannelName(key.name());
        try {
            if (subscribe) {
                connection.addListener(name, this);
                switch (key.kind()) {
                    case SUBSCRIBE -> connection.subscribe(StringCodec.INSTANCE, name);
                    case PSUBSCRIBE -> connection.psubscribe(StringCodec.INSTANCE, name);
                    default -> connection.ssubscribe(StringCodec.INSTANCE, name);
                }
            } else {
                connection.unsubscribe(unsubscribing(key.kind()), name);
            }
            failures.await(done, action, failures.deadline());
        } catch (RuntimeException e) {
            // A subscribe that could not be confirmed leaves nothing behind.
            if (subscribe) {
                wanted.remove(key);
            }
            throw e instanceof StoreUnavailableException ? e : failures.translate(e, action);
        } finally {
            waiting.remove(key, done);
        }
    }

    /** Redis confirmed a (un)subscribe: on the caller's request, or the watchdog's after a reconnect. */
    @Override
    public void onStatus(PubSubType type, CharSequence channel) {
        boolean subscribed = type == PubSubType.SUBSCRIBE || type == PubSubType.PSUBSCRIBE || type == PubSubType.SSUBSCRIBE;
        Key key = new Key(subscribing(type), channel.toString());
        if (subscribed) {
            confirmed.add(key);
        } else {
            confirmed.remove(key);
            connection.removeListener(new ChannelName(key.name()), this);
        }
        CompletableFuture<Void> done = waiting.get(key);
        if (done != null) {
            done.complete(null);
        }
        backIfComplete();
    }

    private void disconnected() {
        if (closed.getAsBoolean()) {
            return;
        }
        confirmed.clear();
        if (!wanted.isEmpty()) {
            LOG.debug("a subscription connection to {} was lost", failures.endpoint());
            lost.lost(this);
        }
    }

    @Override
    public void onMessage(CharSequence channel, Object message) {
        Key key = new Key(PubSubType.SUBSCRIBE, channel.toString());
        Key shard = new Key(PubSubType.SSUBSCRIBE, channel.toString());
        if (wanted.contains(key) || wanted.contains(shard)) {
            delivery.submit(() -> listener.message(channel.toString(), String.valueOf(message)));
        }
    }

    @Override
    public void onPatternMessage(CharSequence pattern, CharSequence channel, Object message) {
        if (wanted.contains(new Key(PubSubType.PSUBSCRIBE, pattern.toString()))) {
            delivery.submit(() -> listener.patternMessage(pattern.toString(), channel.toString(), String.valueOf(message)));
        }
    }

    void close() {
        RedisPubSubConnection current = connection;
        if (current != null) {
            current.closeAsync();
        }
        client.shutdownAsync();
    }
}
