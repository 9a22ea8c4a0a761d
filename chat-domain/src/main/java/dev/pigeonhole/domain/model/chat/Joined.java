package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;

/**
 * A join's outcome. A user who was a member already stays as it was ({@code added} false): its
 * cursor is kept, so a repeated join skips nothing, and there is nothing to announce.
 */
public record Joined(ChatId chat, UserId user, boolean added) implements ChatChange {

    public Joined {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(user, "user");
    }
}
