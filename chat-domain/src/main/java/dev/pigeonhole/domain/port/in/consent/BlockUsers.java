package dev.pigeonhole.domain.port.in.consent;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;

import java.util.List;
import java.util.Objects;

/**
 * A user stops another from reaching it: the blocked user's invitations and direct messages are
 * refused as if the blocker accepted none, and its pending invitations vanish. It is never told.
 */
public interface BlockUsers {

    void block(Command command);

    void unblock(Command command);

    /** The users this user blocked, in name order. */
    List<UserId> blocked(UserId user);

    record Command(UserId user, UserId blocked) {

        public Command {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(blocked, "blocked");
            if (user.equals(blocked)) {
                throw new InvalidInputException("you cannot block yourself");
            }
        }
    }
}
