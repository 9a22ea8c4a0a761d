package dev.pigeonhole.testsupport.redis;

import java.net.URI;
import java.util.Objects;

/** One Redis server of a target, by host and port: the one node, or a node of a cluster. */
public record RedisNode(String host, int port) {

    public RedisNode {
        Objects.requireNonNull(host, "host");
        if (host.isBlank() || port < 1 || port > 65535) {
            throw new IllegalArgumentException("not a host and port: " + host + ":" + port);
        }
    }

    /** Parses {@code host:port}. */
    public static RedisNode parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected host:port, got '" + text + "'");
        }
        try {
            return new RedisNode(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected host:port with a numeric port, got '" + text + "'");
        }
    }

    URI uri() {
        return URI.create("redis://" + host + ":" + port);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
