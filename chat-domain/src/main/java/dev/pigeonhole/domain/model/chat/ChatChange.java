package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;

/**
 * What a change to a chat came to. Each one is announced to live connections (the live chapter
 * says with which events: {@code LiveEvent.announcing}), and who announces it is one rule for
 * every store: a {@link Sent} goes out from the store inside the very step that stores the
 * message (on Redis the send script publishes it, so a send stays one round trip, and on every
 * store a chat's messages are announced in id order); every other change goes out from the caller
 * once the store's step has returned.
 */
public sealed interface ChatChange permits Opened, Sent, Joined, Left {

    ChatId chat();
}
