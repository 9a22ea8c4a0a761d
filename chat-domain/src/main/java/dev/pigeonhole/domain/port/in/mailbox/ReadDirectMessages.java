package dev.pigeonhole.domain.port.in.mailbox;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;

import java.util.List;
import java.util.Objects;

/**
 * The owner reads the oldest messages of its mailbox. Nothing is removed: the owner acknowledges
 * what it has ({@link AcknowledgeDirectMessages}), so an answer lost on the way loses nothing.
 */
public interface ReadDirectMessages {

    List<DirectMessage> read(Command command);

    record Command(UserId owner, int max) {

        public static final int MAX = 1_000;

        public Command {
            Objects.requireNonNull(owner, "owner");
            if (max < 1 || max > MAX) {
                throw new InvalidInputException("max must be between 1 and " + MAX + ", not " + max);
            }
        }
    }
}
