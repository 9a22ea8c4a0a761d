package dev.pigeonhole.domain.model;

import java.time.Instant;
import java.util.Objects;

/** Something worth pushing to connected clients right away. Pull stays the source of truth. */
public sealed interface LiveEvent {

    /** A message was accepted into a chat. */
    record MessagePosted(ChatId chat, Message message) implements LiveEvent {
        public MessagePosted {
            Objects.requireNonNull(chat, "chat");
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * A user became a member of a chat, or stopped being one: what lets a live connection on any
     * server start or stop following the chat, wherever the change was made.
     */
    record MembershipChanged(UserId user, ChatId chat, boolean member) implements LiveEvent {
        public MembershipChanged {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(chat, "chat");
        }
    }

    /**
     * A message was stored in a user's mailbox. It goes on the owner's own channel only, so
     * nothing of one user's mailbox ever reaches another user's feed.
     */
    record DirectMessageDelivered(UserId owner, DirectMessage message) implements LiveEvent {
        public DirectMessageDelivered {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(message, "message");
        }
    }

    /** A user came online or went offline. */
    record PresenceChanged(UserId user, boolean online, Instant at) implements LiveEvent {
        public PresenceChanged {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(at, "at");
        }
    }
}
