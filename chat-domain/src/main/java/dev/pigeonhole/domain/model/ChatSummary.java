package dev.pigeonhole.domain.model;

import java.util.Objects;
import java.util.Set;

/**
 * One chat as one of its members sees it in their chat list.
 *
 * @param cursor the highest id this member has acknowledged
 * @param lastId the newest id the chat has assigned
 */
public record ChatSummary(ChatId chat, Set<UserId> members, long cursor, long lastId) {

    public ChatSummary {
        Objects.requireNonNull(chat, "chat");
        members = Set.copyOf(members);
    }

    public long unread() {
        return HistoryWindow.unread(cursor, lastId);
    }
}
