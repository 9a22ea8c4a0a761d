package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.limits.PendingBudget;

import java.util.List;
import java.util.Objects;

/**
 * What one member has not acknowledged yet in one chat.
 *
 * @param messages         the messages above the member's cursor, oldest first (possibly capped;
 *                         {@code unread} is always the full count)
 * @param unread           how many messages were sent after the member's cursor
 * @param gap              true when retention dropped messages this member never acknowledged
 * @param firstAvailableId the oldest id the chat still holds (lastId + 1 if none); with a gap,
 *                         what the member missed runs from its cursor + 1 to here - 1
 * @param more             true when messages after the last one here were left out (a cap or a
 *                         {@link PendingBudget}): the client reads on after it
 */
public record PendingChat(ChatId chat, List<Message> messages, long unread, boolean gap, long firstAvailableId,
                          boolean more) {

    public PendingChat {
        Objects.requireNonNull(chat, "chat");
        messages = List.copyOf(messages);
        if (unread < messages.size()) {
            throw new IllegalArgumentException("unread " + unread + " is less than the " + messages.size()
                    + " messages returned");
        }
    }

    /** The same chat with only its first {@code count} messages, and {@code more} if that left any out. */
    public PendingChat firstOnly(int count) {
        if (count >= messages.size()) {
            return this;
        }
        return new PendingChat(chat, messages.subList(0, count), unread, gap, firstAvailableId, true);
    }
}
