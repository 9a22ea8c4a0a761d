package dev.pigeonhole.domain.port.in;

import dev.pigeonhole.domain.model.MessageText;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;

/** Drops a message into one user's mailbox (Redis in Action 6.5.1). */
public interface DeliverDirectMessage {

    /**
     * @return the recipient's mailbox depth after this delivery. For monitoring only: telling the
     *         sender how much its recipient has not read would leak what is not theirs to know.
     */
    int deliver(Command command);

    record Command(UserId sender, UserId recipient, String text) {

        public Command {
            Objects.requireNonNull(sender, "sender");
            Objects.requireNonNull(recipient, "recipient");
            MessageText.check(text);
        }
    }
}
