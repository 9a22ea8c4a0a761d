package dev.pigeonhole.domain.port.in.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;

/**
 * Someone comes into an existing chat and reads from its newest message on: a member adds
 * another user (an invitation), or a user joins an open chat by itself.
 */
public interface JoinChat {

    void join(Command command);

    /**
     * @param by   who asks: a member of the chat, or {@code user} itself for an open chat
     * @param user who comes in
     */
    record Command(ChatId chat, UserId by, UserId user) {

        public Command {
            Objects.requireNonNull(chat, "chat");
            Objects.requireNonNull(by, "by");
            Objects.requireNonNull(user, "user");
        }

        /** A user joining an open chat by itself. */
        public static Command self(ChatId chat, UserId user) {
            return new Command(chat, user, user);
        }
    }
}
