package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.chat.CreatedChat;

public record CreatedChatJson(String chatId, MessageJson message) {

    public static CreatedChatJson from(CreatedChat created) {
        return new CreatedChatJson(created.chat().value(), MessageJson.from(created.firstMessage()));
    }
}
