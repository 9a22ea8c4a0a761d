package dev.pigeonhole.adapter.redis.jedis;

import java.util.Locale;

/** One thing a subscription connection subscribes to: a channel, a pattern or a sharded channel. */
record SubscriptionKey(Kind kind, String name) {

    enum Kind {
        CHANNEL("SUBSCRIBE", "UNSUBSCRIBE"),
        PATTERN("PSUBSCRIBE", "PUNSUBSCRIBE"),
        SHARDED("SSUBSCRIBE", "SUNSUBSCRIBE");

        private final String subscribe;
        private final String unsubscribe;

        Kind(String subscribe, String unsubscribe) {
            this.subscribe = subscribe;
            this.unsubscribe = unsubscribe;
        }
    }

    static SubscriptionKey channel(String name) {
        return new SubscriptionKey(Kind.CHANNEL, name);
    }

    static SubscriptionKey pattern(String name) {
        return new SubscriptionKey(Kind.PATTERN, name);
    }

    static SubscriptionKey sharded(String name) {
        return new SubscriptionKey(Kind.SHARDED, name);
    }

    /** The Redis command that makes the change, for messages: {@code SUBSCRIBE news}. */
    String command(boolean subscribe) {
        return (subscribe ? kind.subscribe : kind.unsubscribe) + " " + name;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + " " + name;
    }
}
