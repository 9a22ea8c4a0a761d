package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.chat.CreatedChat;

public record ApiCreatedChat(String chatId, ApiMessage message) {

    public static ApiCreatedChat from(CreatedChat created) {
        return new ApiCreatedChat(created.chat().value(), ApiMessage.from(created.firstMessage()));
    }
}
