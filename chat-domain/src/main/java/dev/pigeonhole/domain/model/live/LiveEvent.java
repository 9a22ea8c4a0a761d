package dev.pigeonhole.domain.model.live;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.ChatChange;
import dev.pigeonhole.domain.model.chat.Joined;
import dev.pigeonhole.domain.model.chat.Left;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.Opened;
import dev.pigeonhole.domain.model.chat.Sent;
import dev.pigeonhole.domain.model.consent.Invitation;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Something worth pushing to connected clients right away. Pull stays the source of truth.
 *
 * <p>The chat and mailbox chapters answer with what changed ({@link ChatChange},
 * {@link Delivered}) and know nothing of live connections; this chapter says which events
 * announce each change ({@link #announcing}), and the stores and services publish them.
 */
public sealed interface LiveEvent {

    /**
     * The events that announce a change to a chat, in order; none for a change nobody follows
     * (a send repeated under its key, a join of someone already in). An opening tells every member,
     * in id order, so each of its live connections starts following the chat; its first message
     * is announced as any {@link Sent} is.
     */
    static List<LiveEvent> announcing(ChatChange change) {
        return switch (change) {
            case Sent sent -> sent.repeat() ? List.of() : List.of(new MessagePosted(sent.chat(), sent.message()));
            case Opened opened -> new TreeSet<>(opened.members()).stream()
                    .<LiveEvent>map(member -> new MembershipChanged(member, opened.chat(), true))
                    .toList();
            case Joined joined -> joined.added()
                    ? List.of(new MembershipChanged(joined.user(), joined.chat(), true))
                    : List.of();
            case Left left -> List.of(new MembershipChanged(left.user(), left.chat(), false));
        };
    }

    /** What announces a delivery, on the recipient's own channel alone ({@link Channel#ofUser}). */
    static LiveEvent announcing(Delivered delivered) {
        return new DirectMessageDelivered(delivered.recipient(), delivered.message());
    }

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

    /**
     * A user was invited to a chat. Like a delivery it goes on the invitee's own channel only:
     * nothing of it reaches the inviter or the chat's members until the invitee accepts.
     */
    record Invited(UserId invitee, Invitation invitation) implements LiveEvent {
        public Invited {
            Objects.requireNonNull(invitee, "invitee");
            Objects.requireNonNull(invitation, "invitation");
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
