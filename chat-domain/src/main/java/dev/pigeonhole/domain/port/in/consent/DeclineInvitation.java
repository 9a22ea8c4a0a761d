package dev.pigeonhole.domain.port.in.consent;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;

/** A user turns an invitation down; its inviter is not told. */
public interface DeclineInvitation {

    void decline(Command command);

    /** @param user who declines: the invitee */
    record Command(UserId user, ChatId chat) {

        public Command {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(chat, "chat");
        }
    }
}
