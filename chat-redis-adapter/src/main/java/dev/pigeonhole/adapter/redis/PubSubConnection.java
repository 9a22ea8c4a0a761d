package dev.pigeonhole.adapter.redis;

/**
 * One subscription connection of a {@link RedisDriver}. Each method returns only once Redis has
 * confirmed the change, so a publish that happens afterwards is certain to be seen (or certain not
 * to be). Subscribing to what is already subscribed, or unsubscribing what is not, is harmless.
 *
 * <p>{@code sharded} asks for SSUBSCRIBE on a cluster (the channel's shard node delivers it);
 * on a single node it is ignored. Patterns are always classic PSUBSCRIBE, since Redis has no
 * sharded patterns.
 */
public interface PubSubConnection extends AutoCloseable {

    void subscribe(String channel, boolean sharded);

    void unsubscribe(String channel, boolean sharded);

    void psubscribe(String pattern);

    void punsubscribe(String pattern);

    /**
     * Ends the connection and its reconnect loop. Idempotent. No listener call starts after this
     * returns; one already running may be waited for.
     */
    @Override
    void close();
}
