package dev.pigeonhole.adapter.redis;

/**
 * Receives what a {@link PubSubConnection} delivers, on the driver's own delivery thread, one call
 * at a time. Implementations hand the message on and return; they never block.
 */
public interface PubSubListener {

    /** A message on a channel subscribed by name (classic or sharded). */
    void message(String channel, String payload);

    /** A message that matched a subscribed pattern. */
    void patternMessage(String pattern, String channel, String payload);

    /**
     * The connection was lost and is back, with every channel and pattern subscribed again.
     * Messages published in between were lost to this connection.
     */
    void resubscribed();
}
