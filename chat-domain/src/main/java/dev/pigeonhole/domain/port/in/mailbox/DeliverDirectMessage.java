package dev.pigeonhole.domain.port.in.mailbox;

import dev.pigeonhole.domain.model.MessageText;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.mailbox.Delivered;

import java.util.Objects;

/** Drops a message into one user's mailbox (Redis in Action 6.5.1) and tells the recipient's live feeds. */
public interface DeliverDirectMessage {

    /**
     * @return the message as stored, with its id in the recipient's mailbox, and the mailbox's
     *         depth (for monitoring only, see {@link Delivered})
     */
    Delivered deliver(Command command);

    record Command(UserId sender, UserId recipient, String text) {

        public Command {
            Objects.requireNonNull(sender, "sender");
            Objects.requireNonNull(recipient, "recipient");
            MessageText.check(text);
        }
    }
}
