package dev.pigeonhole.domain.port.in;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/** Who's online: everyone seen within a window of now. */
public interface ListOnlineUsers {

    /** Online within the configured presence window. */
    Set<UserId> online();

    Set<UserId> online(Query query);

    record Query(Duration within) {

        public static final Duration MAX_WINDOW = Duration.ofDays(1);

        public Query {
            Objects.requireNonNull(within, "within");
            if (within.isNegative() || within.isZero() || within.compareTo(MAX_WINDOW) > 0) {
                throw new InvalidInputException("within must be more than zero and at most " + MAX_WINDOW
                        + ", not " + within);
            }
        }
    }
}
