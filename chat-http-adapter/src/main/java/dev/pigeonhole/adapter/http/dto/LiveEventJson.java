package dev.pigeonhole.adapter.http.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.LiveEvent;
import dev.pigeonhole.domain.model.LiveSignal;
import dev.pigeonhole.domain.model.Message;
import java.util.Optional;

/**
 * One event of the live protocol, the same on the WebSocket and on Server-Sent Events; fields a
 * type does not use are left out.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LiveEventJson(String type, String chatId, MessageJson message, String user, Boolean online) {

    /**
     * What a client is told of a signal; empty for the end of the feed, which each transport
     * answers in its own way (a close code, the end of the stream).
     */
    public static Optional<LiveEventJson> from(LiveSignal signal) {
        return switch (signal) {
            case LiveSignal.Event(var channel, LiveEvent.MessagePosted posted) ->
                    Optional.of(message(posted.chat(), posted.message()));
            case LiveSignal.Event(var channel, LiveEvent.PresenceChanged changed) -> Optional.of(presence(changed));
            // The feed acts on membership changes itself; none is the client's business.
            case LiveSignal.Event(var channel, LiveEvent.MembershipChanged changed) -> Optional.empty();
            case LiveSignal.Resync resync -> Optional.of(resync());
            case LiveSignal.Closed closed -> Optional.empty();
        };
    }

    public static LiveEventJson message(ChatId chat, Message message) {
        return new LiveEventJson("message", chat.value(), MessageJson.from(message), null, null);
    }

    public static LiveEventJson presence(LiveEvent.PresenceChanged changed) {
        return new LiveEventJson("presence", null, null, changed.user().value(), changed.online());
    }

    public static LiveEventJson resync() {
        return new LiveEventJson("resync", null, null, null, null);
    }
}
