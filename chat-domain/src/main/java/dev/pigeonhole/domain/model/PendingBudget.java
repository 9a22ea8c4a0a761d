package dev.pigeonhole.domain.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * How much one answer of pending messages (or one live catch-up) may hold in all, across every
 * chat: {@code maxMessages} messages and {@code maxTextBytes} bytes of message text (UTF-8). A
 * chat left short says {@link PendingChat#more more}, and its client reads on after the last
 * message it got. Without it a user with many deep chats, or with messages crafted to grow in
 * JSON, would make each fetch as large as it liked.
 *
 * <p>The budget is shared out one message per chat in turn, so one deep chat cannot starve the
 * others. The first message always fits, whatever its size, so no message is ever too large to be
 * handed out at all.
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

    /** The chats, in their order, with only as many messages as the budget holds. */
    public List<PendingChat> share(List<PendingChat> chats) {
        int[] taken = new int[chats.size()];
        int messagesLeft = maxMessages;
        long bytesLeft = maxTextBytes;
        boolean spent = false;
        boolean tookAny = true;
        while (!spent && tookAny) {
            tookAny = false;
            for (int i = 0; i < chats.size() && !spent; i++) {
                List<Message> messages = chats.get(i).messages();
                if (taken[i] == messages.size()) {
                    continue;
                }
                long size = textBytes(messages.get(taken[i]));
                boolean first = messagesLeft == maxMessages;
                if (messagesLeft == 0 || (size > bytesLeft && !first)) {
                    spent = true;
                } else {
                    taken[i]++;
                    messagesLeft--;
                    bytesLeft -= size;
                    tookAny = true;
                }
            }
        }
        List<PendingChat> shared = new ArrayList<>(chats.size());
        for (int i = 0; i < chats.size(); i++) {
            shared.add(chats.get(i).firstOnly(taken[i]));
        }
        return List.copyOf(shared);
    }

    private static long textBytes(Message message) {
        return message.body().getBytes(StandardCharsets.UTF_8).length;
    }
}
