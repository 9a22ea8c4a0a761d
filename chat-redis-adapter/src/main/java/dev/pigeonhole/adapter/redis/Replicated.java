package dev.pigeonhole.adapter.redis;

/**
 * A write's reply, with how many replicas of the node that ran it had acknowledged it (and every
 * earlier write of the connection it ran on) when WAIT answered.
 */
public record Replicated(Object reply, long replicas) {
}
