package dev.pigeonhole.adapter.redis.jedis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.JedisShardedPubSub;

/**
 * One subscription connection and Jedis's blocking loop over it, which starts with one
 * subscription (the anchor) and runs until the last one is gone or the connection fails. Classic
 * channels and patterns share one kind of session; sharded channels need the other.
 */
abstract sealed class Session permits Session.Classic, Session.Sharded {

    private static final Logger LOG = LoggerFactory.getLogger(Session.class);

    /** What the loop hears, handed to the subscriber on the loop's thread. */
    interface Events {
        void confirmed(Session from, SubscriptionKey key, boolean subscribed, int remaining);

        void message(SubscriptionKey.Kind kind, String channel, String payload);

        void patternMessage(String pattern, String channel, String payload);
    }

    final Connection connection;
    final SubscriptionKey anchor;
    final Events events;
    /** The last reply counted no subscription left, which ends Jedis's loop. */
    boolean drained;
    /** Redis dropped a subscription nobody asked to drop. */
    boolean dropped;

    private Session(Connection connection, SubscriptionKey anchor, Events events) {
        this.connection = connection;
        this.anchor = anchor;
        this.events = events;
    }

    static Session open(Connection connection, SubscriptionKey anchor, boolean sharded, Events events) {
        return sharded ? new Sharded(connection, anchor, events) : new Classic(connection, anchor, events);
    }

    /** Runs the loop on the calling thread until it ends; a failed connection ends it with an exception. */
    abstract void run();

    /** Writes one subscribe or unsubscribe; its confirmation arrives through the loop. */
    abstract void send(SubscriptionKey key, boolean subscribe);

    /** Closes the socket under the blocked loop, which then ends with an exception. */
    void kill() {
        try {
            connection.forceDisconnect();
        } catch (Exception e) {
            LOG.debug("closing a pub/sub socket failed: {}", e.toString());
        }
    }

    static final class Classic extends Session {
        private final JedisPubSub pubSub = new JedisPubSub() {
            @Override
            public void onMessage(String channel, String message) {
                events.message(SubscriptionKey.Kind.CHANNEL, channel, message);
            }

            @Override
            public void onPMessage(String pattern, String channel, String message) {
                events.patternMessage(pattern, channel, message);
            }

            @Override
            public void onSubscribe(String channel, int subscribedChannels) {
                events.confirmed(Classic.this, SubscriptionKey.channel(channel), true, subscribedChannels);
            }

            @Override
            public void onUnsubscribe(String channel, int subscribedChannels) {
                events.confirmed(Classic.this, SubscriptionKey.channel(channel), false, subscribedChannels);
            }

            @Override
            public void onPSubscribe(String pattern, int subscribedChannels) {
                events.confirmed(Classic.this, SubscriptionKey.pattern(pattern), true, subscribedChannels);
            }

            @Override
            public void onPUnsubscribe(String pattern, int subscribedChannels) {
                events.confirmed(Classic.this, SubscriptionKey.pattern(pattern), false, subscribedChannels);
            }
        };

        private Classic(Connection connection, SubscriptionKey anchor, Events events) {
            super(connection, anchor, events);
        }

        @Override
        void run() {
            if (anchor.kind() == SubscriptionKey.Kind.PATTERN) {
                pubSub.proceedWithPatterns(connection, anchor.name());
            } else {
                pubSub.proceed(connection, anchor.name());
            }
        }

        @Override
        void send(SubscriptionKey key, boolean subscribe) {
            switch (key.kind()) {
                case CHANNEL -> {
                    if (subscribe) {
                        pubSub.subscribe(key.name());
                    } else {
                        pubSub.unsubscribe(key.name());
                    }
                }
                case PATTERN -> {
                    if (subscribe) {
                        pubSub.psubscribe(key.name());
                    } else {
                        pubSub.punsubscribe(key.name());
                    }
                }
                case SHARDED -> throw new IllegalArgumentException("a classic connection carries no sharded channel");
            }
        }
    }

    static final class Sharded extends Session {
        private final JedisShardedPubSub pubSub = new JedisShardedPubSub() {
            @Override
            public void onSMessage(String channel, String message) {
                events.message(SubscriptionKey.Kind.SHARDED, channel, message);
            }

            @Override
            public void onSSubscribe(String channel, int subscribedChannels) {
                events.confirmed(Sharded.this, SubscriptionKey.sharded(channel), true, subscribedChannels);
            }

            @Override
            public void onSUnsubscribe(String channel, int subscribedChannels) {
                events.confirmed(Sharded.this, SubscriptionKey.sharded(channel), false, subscribedChannels);
            }
        };

        private Sharded(Connection connection, SubscriptionKey anchor, Events events) {
            super(connection, anchor, events);
        }

        @Override
        void run() {
            pubSub.proceed(connection, anchor.name());
        }

        @Override
        void send(SubscriptionKey key, boolean subscribe) {
            if (key.kind() != SubscriptionKey.Kind.SHARDED) {
                throw new IllegalArgumentException("a sharded connection carries only sharded channels");
            }
            if (subscribe) {
                pubSub.ssubscribe(key.name());
            } else {
                pubSub.sunsubscribe(key.name());
            }
        }
    }
}
