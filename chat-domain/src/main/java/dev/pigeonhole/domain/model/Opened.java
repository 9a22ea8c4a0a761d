package dev.pigeonhole.domain.model;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A chat that was just opened: its members, and the first message, sent by the creator in the
 * same step so that no one ever sees the chat without it. The first message is announced as any
 * {@link Sent} is; the new memberships are this change's own events.
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

    /** Every member is told, in id order, so each of its live connections starts following the chat. */
    @Override
    public List<LiveEvent> events() {
        return new TreeSet<>(members).stream()
                .<LiveEvent>map(member -> new LiveEvent.MembershipChanged(member, chat, true))
                .toList();
    }
}
