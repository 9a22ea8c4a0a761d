package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.chat.PendingChat;

import java.util.List;

/** Everything the caller has not acknowledged, chat by chat. */
public record ApiPending(List<Chat> chats) {

    /**
     * @param firstAvailableId with {@code gap}, what the member missed runs from its cursor + 1 to
     *                         just below this
     * @param more             the budget left messages out after the last one here
     */
    public record Chat(String chatId, List<ApiMessage> messages, long unread, boolean gap, long firstAvailableId,
                       boolean more) {
    }

    public static ApiPending from(List<PendingChat> pending) {
        return new ApiPending(pending.stream()
                .map(chat -> new Chat(chat.chat().value(), ApiMessage.from(chat.messages()), chat.unread(), chat.gap(),
                        chat.firstAvailableId(), chat.more()))
                .toList());
    }
}
