package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;
import java.util.Set;

/**
 * One chat as one of its members sees it in their chat list.
 *
 * @param access whether others may join by themselves ({@link Access#OPEN}) or only when a member adds them
 * @param cursor the highest id this member has acknowledged
 * @param lastId the newest id the chat has assigned
 */
public record ChatSummary(ChatId chat, Set<UserId> members, Access access, long cursor, long lastId) {

    public ChatSummary {
        Objects.requireNonNull(chat, "chat");
        members = Set.copyOf(members);
        Objects.requireNonNull(access, "access");
    }

    public long unread() {
        return HistoryWindow.unread(cursor, lastId);
    }
}
