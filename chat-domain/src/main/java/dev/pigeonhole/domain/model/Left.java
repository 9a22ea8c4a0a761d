package dev.pigeonhole.domain.model;

import java.util.List;
import java.util.Objects;

/**
 * A leave's outcome. When the last member leaves, the chat is gone ({@code chatDeleted}): its id
 * is free, and nothing of it remains to resurrect.
 */
public record Left(ChatId chat, UserId user, boolean chatDeleted) implements ChatChange {

    public Left {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(user, "user");
    }

    @Override
    public List<LiveEvent> events() {
        return List.of(new LiveEvent.MembershipChanged(user, chat, false));
    }
}
