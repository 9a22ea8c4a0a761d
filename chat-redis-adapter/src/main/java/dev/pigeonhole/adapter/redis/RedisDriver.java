package dev.pigeonhole.adapter.redis;

import java.time.Duration;
import java.util.List;

/**
 * What the Redis algorithm needs from a client, and nothing more: call a function of a library,
 * call several in one pipelined round trip, publish, and hold a subscription connection. Jedis,
 * Lettuce, Redisson and GLIDE each implement it in their own package; everything above it (keys,
 * functions, JSON, the ports) is written once, against this interface.
 *
 * <p>Every read and write goes through a function of a {@link FunctionLibrary}, even the
 * one-command ones, so a driver has no per-command surface to keep in step with the others,
 * and every call can name the keys it touches (which is what routes it on a cluster).
 *
 * <p>Replies come back as plain Java values: {@code Long} for integers, {@code String} for bulk and
 * status replies, {@code List<Object>} for arrays, {@code null} for nil (and for a Lua
 * {@code false}). A failure to reach Redis, an answer that does not come within the configured
 * timeout, or a refusal (wrong credentials, a read-only replica, a server still loading) is a
 * {@link dev.pigeonhole.domain.model.StoreUnavailableException}; any other error reply from a
 * function is an {@link IllegalStateException}, since it means a bug, not an outage. Every
 * implementation leaves that decision to {@link RedisFailures}, so they fail alike. No client
 * type or exception leaves an implementation.
 *
 * <p>Implementations are thread-safe and reconnect by themselves.
 */
public interface RedisDriver extends AutoCloseable {

    /**
     * Calls the function with FCALL, or FCALL_RO for one that writes nothing: one round trip. A
     * node that knows no such function gets the function's library first, and the call is made
     * once more ({@link FunctionLibrary#loadingOnMiss}).
     */
    Object run(FunctionCall call);

    /**
     * Makes the calls in one pipelined round trip (on a cluster, one per node involved, all in
     * flight at once) and returns their replies in order. A call whose node knew no such function
     * is made again on its own, as {@link #run} makes it.
     */
    List<Object> runAll(List<FunctionCall> calls);

    /**
     * {@link #run} for a function that writes, followed by {@code WAIT replicas timeout} on the very
     * connection the call ran on (WAIT counts the replicas that acknowledged every write of its own
     * connection, and cannot run inside a function). Answers the call's reply and the count WAIT
     * answered, which is below {@code replicas} when the timeout passed first. The two go out in
     * one pipelined round trip; the answer comes once the replicas have acknowledged. A client
     * that shares one connection among its callers holds their calls behind the WAIT meanwhile.
     */
    Replicated runReplicated(FunctionCall call, int replicas, Duration timeout);

    /** The name of every primary, as {@link #nodeOf} names them: one on a single node. */
    List<String> primaries();

    /**
     * Sends a command that names no key to one primary, by its name: what installs a library
     * ({@code FUNCTION LOAD}) and asks its version. Replies as {@link #run} does; an error reply
     * is an {@link IllegalStateException} carrying Redis's words, a {@link MissingFunctionException}
     * for a function the node does not know.
     */
    Object onNode(String node, List<String> command);

    /**
     * The node that serves the key's slot, as a name to group calls by: every key one node serves
     * has the same name, and on a single node every key does. A cluster's name is the primary's
     * address, after one refresh of the slot map if no node is known for the slot. A function
     * flagged {@code allow-cross-slot-keys} may reach keys of every slot its node serves, though
     * the keys a call declares (which route it) must still share one slot.
     */
    String nodeOf(String key);

    /**
     * {@link #nodeOf}, after reading the cluster's slot map afresh: for the rare call that must
     * reach the very node that just answered, such as loading a library where a call found none,
     * when a failover may have moved the slot since the driver last looked.
     */
    String currentNodeOf(String key);

    /**
     * Publishes outside a function. {@code sharded} selects SPUBLISH, which a cluster delivers
     * within the channel's shard only; a single node is always asked for PUBLISH.
     */
    void publish(String channel, String payload, boolean sharded);

    /** True when connected to a Redis Cluster, where every call's keys must share one slot. */
    boolean isCluster();

    /**
     * Opens a dedicated subscription connection that delivers to {@code listener}. The driver
     * keeps it alive: when the connection is lost it reconnects, subscribes everything again and
     * then calls {@link PubSubListener#resubscribed()}.
     */
    PubSubConnection openPubSub(PubSubListener listener);

    /** True if Redis answered a PING within the timeout. Never throws. */
    boolean ping();

    /** Closes every connection; closing twice is harmless. */
    @Override
    void close();
}
