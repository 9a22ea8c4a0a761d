package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.chat.MessagePage;

import java.util.List;

/** A slice of one chat's history; ask again with {@code after} set to the last id to go on. */
public record ApiPage(List<ApiMessage> messages, boolean gap, long firstAvailableId, long lastId) {

    public static ApiPage from(MessagePage page) {
        return new ApiPage(ApiMessage.from(page.messages()), page.gap(), page.firstAvailableId(), page.lastId());
    }
}
