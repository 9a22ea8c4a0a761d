package dev.pigeonhole.domain.model.limits;

import dev.pigeonhole.domain.model.InvalidInputException;

/**
 * How much one answer of pending messages (or one live catch-up) may hold in all, across every
 * chat: {@code maxMessages} messages and {@code maxTextBytes} bytes of message text (UTF-8). A
 * chat left short says it has more, and its client reads on after the last
 * message it got. Without it a user with many deep chats, or with messages crafted to grow in
 * JSON, would make each fetch as large as it liked.
 *
 * <p>How it is shared out over a member's chats is the chat chapter's ({@code PendingChats}).
 */
public record PendingBudget(int maxMessages, long maxTextBytes) {

    public static final PendingBudget DEFAULTS = new PendingBudget(1_000, 1L << 20);

    public PendingBudget {
        if (maxMessages < 1) {
            throw new InvalidInputException("a pending budget holds at least 1 message, not " + maxMessages);
        }
        if (maxTextBytes < 1) {
            throw new InvalidInputException("a pending budget holds at least 1 byte of text, not " + maxTextBytes);
        }
    }
}
