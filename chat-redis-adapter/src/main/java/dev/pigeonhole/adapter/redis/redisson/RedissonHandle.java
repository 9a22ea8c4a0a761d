package dev.pigeonhole.adapter.redis.redisson;

import org.redisson.Redisson;
import org.redisson.api.RFunctionAsync;
import org.redisson.client.codec.StringCodec;
import org.redisson.command.CommandAsyncExecutor;
import org.redisson.config.Config;
import org.redisson.connection.ConnectionManager;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The Redisson client, created on first use rather than in the driver's constructor. Redisson
 * connects (and, on a cluster, reads the slot map) when it is created and gives up for good if
 * that fails: its lazy initialisation shuts the client down after one failed attempt. A process
 * that starts while Redis is down should fail its calls, not its start, and recover once Redis is
 * back, so a failed start is simply made again by the next call. Once created, Redisson keeps
 * its connections and reconnects them by itself.
 */
final class RedissonHandle implements AutoCloseable {

    /** What one started client offers the driver. */
    record Established(Redisson redisson, CommandAsyncExecutor executor, RFunctionAsync functions) {
        ConnectionManager connectionManager() {
            return executor.getConnectionManager();
        }
    }

    private final Supplier<Config> config;
    private final long shutdownTimeoutMillis;
    private volatile Established established;
    private boolean closed;

    RedissonHandle(Supplier<Config> config, long shutdownTimeoutMillis) {
        this.config = config;
        this.shutdownTimeoutMillis = shutdownTimeoutMillis;
    }

    /** The client, started now if it is not yet; throws Redisson's exception if that fails. */
    Established get() {
        Established current = established;
        return current != null ? current : establish();
    }

    private synchronized Established establish() {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (established == null) {
            Redisson redisson = (Redisson) Redisson.create(config.get());
            established = new Established(redisson, redisson.getCommandExecutor(), redisson.getFunction(StringCodec.INSTANCE));
        }
        return established;
    }

    @Override
    public synchronized void close() {
        closed = true;
        Established current = established;
        established = null;
        if (current != null) {
            // No quiet period: nothing is sent on a closed driver.
            current.redisson().shutdown(0, shutdownTimeoutMillis, TimeUnit.MILLISECONDS);
        }
    }
}
