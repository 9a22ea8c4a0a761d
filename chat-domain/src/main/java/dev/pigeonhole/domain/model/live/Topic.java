package dev.pigeonhole.domain.model.live;

/** What a live subscription listens to: one named channel, or every channel matching a pattern. */
public sealed interface Topic permits Channel, ChannelPattern {
}
