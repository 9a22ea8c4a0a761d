package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;

import java.util.Objects;

/** A chat that was just opened, with the message that opened it. */
public record CreatedChat(ChatId chat, Message firstMessage) {

    public CreatedChat {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(firstMessage, "firstMessage");
    }
}
