package dev.pigeonhole.domain.port.in.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;

/** A member leaves; the last one out deletes the chat. */
public interface LeaveChat {

    void leave(Command command);

    record Command(ChatId chat, UserId user) {

        public Command {
            Objects.requireNonNull(chat, "chat");
            Objects.requireNonNull(user, "user");
        }
    }
}
