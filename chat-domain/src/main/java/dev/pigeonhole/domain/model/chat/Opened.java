package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;
import java.util.Set;

/**
 * A chat that was just opened: its members, and the first message, sent by the creator in the
 * same step so that no one ever sees the chat without it. The first message is announced as any
 * {@link Sent} is; the new memberships are announced to every member.
 */
public record Opened(ChatId chat, Sent first, Set<UserId> members) implements ChatChange {

    public Opened {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(first, "first");
        members = Set.copyOf(members);
    }

    public Message message() {
        return first.message();
    }
}
