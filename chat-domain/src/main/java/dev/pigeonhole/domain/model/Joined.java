package dev.pigeonhole.domain.model;

import java.util.List;
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

    @Override
    public List<LiveEvent> events() {
        return added ? List.of(new LiveEvent.MembershipChanged(user, chat, true)) : List.of();
    }
}
