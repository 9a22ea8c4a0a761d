package dev.pigeonhole.domain.model;

import java.util.List;

/**
 * What a change to a chat came to, with the live events it owes. Who announces them is one rule
 * for every store: the events of a {@link Sent} go out from the store inside the very step that
 * stores the message (on Redis the send script publishes them, so a send stays one round trip,
 * and on every store a chat's messages are announced in id order); the events of every other
 * change go out from the caller once the store's step has returned.
 */
public sealed interface ChatChange permits Opened, Sent, Joined, Left {

    ChatId chat();

    /** The events to announce, in order; empty when the change changed nothing anyone follows. */
    List<LiveEvent> events();
}
