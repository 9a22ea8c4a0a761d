package dev.pigeonhole.domain.port.in;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.Message;
import dev.pigeonhole.domain.model.MessageText;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;

/** Posts a message to a chat the sender is a member of. One atomic step, no lock. */
public interface SendMessage {

    Message send(Command command);

    record Command(ChatId chat, UserId sender, String text) {

        public Command {
            Objects.requireNonNull(chat, "chat");
            Objects.requireNonNull(sender, "sender");
            MessageText.check(text);
        }
    }
}
