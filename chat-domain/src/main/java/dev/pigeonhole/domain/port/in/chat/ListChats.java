package dev.pigeonhole.domain.port.in.chat;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.ChatSummary;

import java.util.List;

/** A user's chats with their members and unread counts, for a chat list. */
public interface ListChats {

    List<ChatSummary> chatsOf(UserId user);
}
