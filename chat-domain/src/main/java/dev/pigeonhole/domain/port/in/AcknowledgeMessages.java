package dev.pigeonhole.domain.port.in;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;

/**
 * Tells the chat that a member has every message up to an id. Forward only: acknowledging an
 * older id than before changes nothing.
 */
public interface AcknowledgeMessages {

    void acknowledge(Command command);

    record Command(UserId user, ChatId chat, long upTo) {

        public Command {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(chat, "chat");
            if (upTo < 0) {
                throw new InvalidInputException("upTo must be 0 or more, not " + upTo);
            }
        }
    }
}
