package dev.pigeonhole.domain.port.in;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;

/** A user joins an existing chat and starts reading from its newest message on. */
public interface JoinChat {

    void join(Command command);

    record Command(ChatId chat, UserId user) {

        public Command {
            Objects.requireNonNull(chat, "chat");
            Objects.requireNonNull(user, "user");
        }
    }
}
