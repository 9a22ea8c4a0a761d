package dev.pigeonhole.domain.model.chat;

import java.util.List;

/**
 * A slice of one chat's history.
 *
 * @param messages         oldest first
 * @param gap              true when messages right after the requested id are no longer kept
 * @param firstAvailableId the oldest id the chat still holds, or lastId + 1 if it holds none
 * @param lastId           the newest id the chat has assigned
 */
public record MessagePage(List<Message> messages, boolean gap, long firstAvailableId, long lastId) {

    public MessagePage {
        messages = List.copyOf(messages);
    }
}
