package dev.pigeonhole.domain.port.in.consent;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;

/**
 * A user takes up an invitation: it becomes a member at the point it was invited, so it reads the
 * message that came with the invitation and whatever was said while it waited, never anything
 * from before.
 */
public interface AcceptInvitation {

    void accept(Command command);

    /** @param user who accepts: the invitee */
    record Command(UserId user, ChatId chat) {

        public Command {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(chat, "chat");
        }
    }
}
