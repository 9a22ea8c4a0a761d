package dev.pigeonhole.domain.port.in;

import dev.pigeonhole.domain.model.ChatSummary;
import dev.pigeonhole.domain.model.UserId;

import java.util.List;

/** A user's chats with their members and unread counts, for a chat list. */
public interface ListChats {

    List<ChatSummary> chatsOf(UserId user);
}
