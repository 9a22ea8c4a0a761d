package dev.pigeonhole.adapter.http.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.LiveEvent;
import dev.pigeonhole.domain.model.Message;

/** One frame of the live protocol; fields a type does not use are left out. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LiveEventJson(String type, String chatId, MessageJson message, String user, Boolean online) {

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
