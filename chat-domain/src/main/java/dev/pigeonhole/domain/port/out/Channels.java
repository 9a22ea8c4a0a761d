package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;

/**
 * Publish/subscribe, the fast path for live events. Deliveries are best effort: a subscriber that
 * is disconnected misses them, which is why pull ({@link Chats#pending}) stays the source of
 * truth and a reconnect is always reported.
 *
 * <p>Subscribing is deliberately low level: one {@link Connection} per process carries every
 * subscription, and the domain's {@code SubscriptionMultiplexer} shares it among all local
 * subscribers. Nothing else should call {@link #connect}.
 */
public interface Channels {

    /**
     * Sends the event to everyone subscribed to {@code channel} or a pattern matching it (where
     * the store carries patterns: see {@link Connection#subscribe}).
     */
    void publish(Channel channel, LiveEvent event);

    /**
     * Opens an upstream connection that delivers to {@code receiver}. Each connection receives
     * every event it is subscribed to, independently of other connections.
     */
    Connection connect(Receiver receiver);

    /** One upstream subscription connection. */
    interface Connection extends AutoCloseable {

        /**
         * Starts delivering the topic's events. Returns only once the store has confirmed it, so
         * that anything published afterwards is certain to arrive; subscribing twice is harmless.
         *
         * <p>Patterns may cost a store something on every publish (a Redis Cluster publishes each
         * event a second, cluster-wide way for them), so a store may be configured not to carry
         * them. Such a store refuses a {@link dev.pigeonhole.domain.model.live.ChannelPattern}
         * with an {@link UnsupportedOperationException} naming the setting that turns patterns
         * on, rather than confirm a subscription that would hear nothing; channels are unaffected.
         *
         * @throws UnsupportedOperationException for a pattern, on a store configured without them
         */
        void subscribe(Topic topic);

        /**
         * Stops delivering the topic's events. Returns once the store has confirmed it, so nothing
         * published afterwards arrives; unsubscribing an unknown topic is harmless.
         */
        void unsubscribe(Topic topic);

        /**
         * Drops every subscription; closing twice is harmless. No callback runs after this
         * returns, so it may wait for one in progress: never call it while holding a lock the
         * receiver takes.
         */
        @Override
        void close();
    }

    /**
     * Called on the connection's own delivery thread, one call at a time, in publish order for
     * each channel. Implementations must not block: hand the event on and return.
     */
    interface Receiver {

        /**
         * An event arrived. {@code via} is the subscription that matched: the channel itself, or
         * the pattern. An event matching both a channel and a pattern arrives once for each.
         */
        void onEvent(Topic via, Channel channel, LiveEvent event);

        /**
         * The connection was lost and is back, with every topic subscribed again. Events
         * published in between are lost to this connection.
         */
        void onResubscribed();
    }
}
