package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.codec.LiveEventCodec;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.ChannelPattern;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live events over Redis pub/sub. Each {@link #connect connection} is one subscription connection
 * of the driver, which resubscribes by itself after a drop; the domain's multiplexer shares it
 * among every local subscriber of the process.
 *
 * <p>Events travel in the live event codec's form ({@link LiveEventCodec}), the same as a
 * PostgreSQL notification's. A chat's send function and a mailbox's deliver function publish that
 * form themselves, in the same round trip as what they store, filling in the message's id.
 *
 * <p>A pattern hears only classic PUBLISH, which a cluster sends beside SPUBLISH only when it is
 * asked to carry patterns ({@link PublishMode}); otherwise a pattern subscription is refused,
 * since one that is confirmed and then hears nothing would be worse than none.
 */
public final class RedisChannels implements Channels {

    private static final Logger LOG = LoggerFactory.getLogger(RedisChannels.class);

    /** Names the server's option, since an operator is who can turn patterns on. */
    private static final String PATTERNS_OFF = " on this Redis Cluster: events go out with SPUBLISH alone, which no "
            + "pattern hears; start the server with --redis-cluster-patterns (env PIGEONHOLE_REDIS_CLUSTER_PATTERNS; "
            + "in code, PublishMode.of(driver, true)) to send them with classic PUBLISH too";

    private final RedisDriver redis;
    private final KeyLayout keys;
    private final PublishMode publishing;

    public RedisChannels(RedisDriver redis, KeyLayout keys, PublishMode publishing) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.publishing = Objects.requireNonNull(publishing, "publishing");
    }

    @Override
    public void publish(Channel channel, LiveEvent event) {
        String name = keys.channel(channel);
        String payload = LiveEventCodec.encode(event);
        if (publishing.sharded()) {
            redis.publish(name, payload, true);
        }
        if (publishing.classic()) {
            redis.publish(name, payload, false);
        }
    }

    @Override
    public Connection connect(Receiver receiver) {
        return new RedisConnection(Objects.requireNonNull(receiver, "receiver"));
    }

    private final class RedisConnection implements Connection, PubSubListener {

        private final Receiver receiver;
        /** Redis's pattern text → the domain pattern, to say which subscription matched. */
        private final Map<String, ChannelPattern> patterns = new ConcurrentHashMap<>();
        private final PubSubConnection upstream;
        private volatile boolean closed;

        RedisConnection(Receiver receiver) {
            this.receiver = receiver;
            this.upstream = redis.openPubSub(this);
        }

        @Override
        public void subscribe(Topic topic) {
            requireOpen();
            switch (topic) {
                case Channel channel -> upstream.subscribe(keys.channel(channel), publishing.sharded());
                case ChannelPattern pattern -> {
                    if (!publishing.carriesPatterns()) {
                        throw new UnsupportedOperationException(
                                "cannot subscribe to the pattern " + pattern + PATTERNS_OFF);
                    }
                    String redisPattern = keys.pattern(pattern);
                    patterns.put(redisPattern, pattern);
                    upstream.psubscribe(redisPattern);
                }
            }
        }

        @Override
        public void unsubscribe(Topic topic) {
            requireOpen();
            switch (topic) {
                case Channel channel -> upstream.unsubscribe(keys.channel(channel), publishing.sharded());
                case ChannelPattern pattern -> {
                    String redisPattern = keys.pattern(pattern);
                    upstream.punsubscribe(redisPattern);
                    patterns.remove(redisPattern);
                }
            }
        }

        @Override
        public void close() {
            closed = true;
            upstream.close();
        }

        @Override
        public void message(String channel, String payload) {
            decoded(channel, payload).ifPresent(event -> receiver.onEvent(event.channel(), event.channel(), event.event()));
        }

        @Override
        public void patternMessage(String pattern, String channel, String payload) {
            ChannelPattern via = patterns.get(pattern);
            if (via != null) {
                decoded(channel, payload).ifPresent(event -> receiver.onEvent(via, event.channel(), event.event()));
            }
        }

        @Override
        public void resubscribed() {
            if (!closed) {
                receiver.onResubscribed();
            }
        }

        /** Someone else's message on a channel we share is dropped with a warning, not delivered half-read. */
        private Optional<Delivery> decoded(String redisChannel, String payload) {
            if (closed) {
                return Optional.empty();
            }
            Optional<Channel> channel = keys.channelNamed(redisChannel);
            if (channel.isEmpty()) {
                LOG.warn("dropped a message on {}, which is not a channel of this store", redisChannel);
                return Optional.empty();
            }
            try {
                return Optional.of(new Delivery(channel.get(), LiveEventCodec.decode(payload)));
            } catch (IllegalArgumentException e) {
                LOG.warn("dropped a message on {} that is not a live event: {}", redisChannel, e.getMessage());
                return Optional.empty();
            }
        }

        private void requireOpen() {
            if (closed) {
                throw new IllegalStateException("this live connection is closed");
            }
        }
    }

    private record Delivery(Channel channel, LiveEvent event) {
    }
}
