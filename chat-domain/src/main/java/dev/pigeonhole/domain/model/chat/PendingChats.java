package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.limits.PendingBudget;

import java.util.ArrayList;
import java.util.List;

/**
 * What a member has not read across its chats, held to a {@link PendingBudget}: one answer of
 * pending messages, or one live catch-up. A chat left short says {@link PendingChat#more more}.
 *
 * <p>The budget is shared out one message per chat in turn, so one deep chat cannot starve the
 * others. The first message always fits, whatever its size, so no message is ever too large to be
 * handed out at all.
 */
public final class PendingChats {

    private PendingChats() {
    }

    /** The chats, in their order, with only as many messages as the budget holds in all. */
    public static List<PendingChat> within(PendingBudget budget, List<PendingChat> chats) {
        int[] taken = new int[chats.size()];
        int messagesLeft = budget.maxMessages();
        long bytesLeft = budget.maxTextBytes();
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
                boolean first = messagesLeft == budget.maxMessages();
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
        return utf8Length(message.body());
    }

    /**
     * How many bytes the text takes in UTF-8, as {@link String#getBytes} would make them (a lone
     * surrogate becomes one '?'), counted instead of encoded: the budget weighs every message
     * pending, and encoding each one would copy its whole body only to read a length.
     */
    static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (!Character.isSurrogate(c)) {
                bytes += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 1;
            }
        }
        return bytes;
    }
}
