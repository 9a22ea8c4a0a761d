package dev.pigeonhole.domain.port.in.presence;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Set;

/**
 * Who's online: seen within a window of now. A user sees the presence of the people it shares a
 * chat with, and its own, and of no one else: a stranger must not learn when you are active.
 */
public interface ListOnlineUsers {

    /** Who of {@code asker}'s co-members, and {@code asker} itself, is online within the configured window. */
    Set<UserId> online(UserId asker);

    /** The same, within the query's window. */
    Set<UserId> online(UserId asker, Query query);

    /** How many users in all are online within the configured window: a count for operators, naming no one. */
    int onlineCount();

    /** @param within kept to the millisecond, the domain's unit of time, as every time is */
    record Query(Duration within) {

        public static final Duration MAX_WINDOW = Duration.ofDays(1);

        public Query {
            Objects.requireNonNull(within, "within");
            if (within.compareTo(Duration.ofMillis(1)) < 0 || within.compareTo(MAX_WINDOW) > 0) {
                throw new InvalidInputException("within must be at least a millisecond and at most " + MAX_WINDOW
                        + ", not " + within);
            }
            within = within.truncatedTo(ChronoUnit.MILLIS);
        }
    }
}
