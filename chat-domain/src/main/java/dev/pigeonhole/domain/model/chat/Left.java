package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

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
}
