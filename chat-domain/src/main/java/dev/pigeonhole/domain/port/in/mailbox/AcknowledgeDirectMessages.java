package dev.pigeonhole.domain.port.in.mailbox;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;

/**
 * The owner says it has every message of its mailbox up to an id, and the mailbox lets go of
 * them. Acknowledging again, or an older id, changes nothing; an id the mailbox never handed out
 * is refused.
 */
public interface AcknowledgeDirectMessages {

    void acknowledge(Command command);

    record Command(UserId owner, long upTo) {

        public Command {
            Objects.requireNonNull(owner, "owner");
            if (upTo < 0) {
                throw new InvalidInputException("upTo must be 0 or more, not " + upTo);
            }
        }
    }
}
