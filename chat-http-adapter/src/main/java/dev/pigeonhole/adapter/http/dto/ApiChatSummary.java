package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;

import java.util.List;

/**
 * One entry of the caller's chat list; members sorted, so the answer is stable.
 *
 * @param open true if anyone may join by itself; false for a private chat, which only a member
 *             brings others into
 */
public record ApiChatSummary(String chatId, List<String> members, boolean open, long cursor, long lastId,
                              long unread) {

    public static ApiChatSummary from(ChatSummary chat) {
        List<String> members = chat.members().stream().sorted().map(UserId::value).toList();
        return new ApiChatSummary(chat.chat().value(), members, chat.access() == Access.OPEN, chat.cursor(),
                chat.lastId(), chat.unread());
    }
}
