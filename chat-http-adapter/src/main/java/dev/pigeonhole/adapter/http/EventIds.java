package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidIdException;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.port.in.live.LiveFeed;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code id:} of a Server-Sent message event, and the {@code Last-Event-ID} a browser sends
 * back when it reconnects: what the stream has delivered, as {@code chat:id} pairs joined by
 * commas, the chat heard from last at the end ({@code lunch:42,team:7}).
 *
 * <p>A chat id never holds {@code :} or {@code ,}, so nothing needs escaping. The domain keeps at
 * most {@link LiveFeed.Received#MAX_CHATS} chats in it, which bounds an id to {@link #MAX_LENGTH}
 * characters whatever the number of the user's chats.
 */
final class EventIds {

    /** 16 chats of 64 characters, each with a colon, a 19-digit id and a comma. */
    static final int MAX_LENGTH = LiveFeed.Received.MAX_CHATS * (64 + 1 + 19 + 1);
    private static final Pattern PAIR = Pattern.compile("([^:,]+):([0-9]{1,19})");

    private EventIds() {
    }

    static String of(LiveFeed.Received received) {
        StringBuilder id = new StringBuilder();
        received.highestIds().forEach((chat, highest) -> {
            if (!id.isEmpty()) {
                id.append(',');
            }
            id.append(chat.value()).append(':').append(highest);
        });
        return id.toString();
    }

    /** What a reconnecting client says it has; blank is nothing, anything unreadable is a 400. */
    static LiveFeed.Received parse(String lastEventId) {
        if (lastEventId == null || lastEventId.isBlank()) {
            return LiveFeed.Received.NOTHING;
        }
        if (lastEventId.length() > MAX_LENGTH) {
            throw malformed("it is " + lastEventId.length() + " characters long; an id this server gives is at most "
                    + MAX_LENGTH);
        }
        Map<ChatId, Long> highest = new LinkedHashMap<>();
        for (String pair : lastEventId.strip().split(",", -1)) {
            var parts = PAIR.matcher(pair);
            if (!parts.matches()) {
                throw malformed("'" + printable(pair) + "' is not 'chat:id'");
            }
            try {
                ChatId chat = ChatId.of(parts.group(1));
                long id = Long.parseLong(parts.group(2));
                if (highest.put(chat, id) != null) {
                    throw malformed("chat '" + chat + "' appears twice");
                }
            } catch (InvalidIdException | NumberFormatException e) {
                throw malformed("'" + printable(pair) + "' is not 'chat:id': " + e.getMessage());
            }
        }
        try {
            return new LiveFeed.Received(highest);
        } catch (InvalidInputException e) {
            throw malformed(e.getMessage());
        }
    }

    private static Problem malformed(String why) {
        return Problem.of(400, "invalid-last-event-id", "Invalid Last-Event-ID",
                "Last-Event-ID must be an id this server sent (chat:id pairs, comma-separated): " + why
                        + "; leave it out to start afresh");
    }

    private static String printable(String value) {
        String shown = value.length() > 80 ? value.substring(0, 80) + "…" : value;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }
}
