package dev.pigeonhole.domain.port.in.consent;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;

import java.util.Objects;

/** A user says who may add it to a chat directly; everyone else invites. */
public interface ChooseAddPolicy {

    void choose(Command command);

    /** The policy in force for the user: its own choice, or the server's default. */
    AddPolicy policyOf(UserId user);

    record Command(UserId user, AddPolicy policy) {

        public Command {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(policy, "policy");
        }
    }
}
