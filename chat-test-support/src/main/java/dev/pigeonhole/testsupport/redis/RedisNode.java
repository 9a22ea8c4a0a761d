package dev.pigeonhole.testsupport.redis;

import java.net.URI;

/** One Redis server of a target, by host and port: the one node, or a node of a cluster. */
public record RedisNode(String host, int port) {

    /** Parses {@code host:port}. */
    public static RedisNode parse(String text) {
        int colon = text.lastIndexOf(':');
        try {
            return new RedisNode(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("expected host:port, got '" + text + "'", e);
        }
    }

    URI uri() {
        return URI.create("redis://" + host + ":" + port);
    }

    /** As {@link #uri()}, {@code rediss://} when {@code tls}. */
    URI uri(boolean tls) {
        return URI.create((tls ? "rediss" : "redis") + "://" + host + ":" + port);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
