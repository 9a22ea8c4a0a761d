package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.UserId;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Who was last seen when: a sorted set of user and last-seen time. The registry records facts;
 * what "online" means (the window) is the domain's rule, applied in the presence service.
 * Every time it is given is to the millisecond (the service reads its clock through
 * {@link dev.pigeonhole.domain.model.MillisecondClock} and its windows are whole milliseconds),
 * as a sorted-set score of epoch millis keeps it, so a store compares times as they come.
 */
public interface PresenceRegistry {

    /**
     * Records a sighting. Last-seen never moves backwards: a sighting older than the one stored
     * changes nothing.
     *
     * @return when the user was last seen before this sighting, or empty if never (or pruned)
     */
    Optional<Instant> touch(UserId user, Instant at);

    /** Users last seen at or after {@code since}. */
    Set<UserId> seenSince(Instant since);

    /**
     * How many users were last seen at or after {@code since}, without listing them: what a
     * gauge of users online needs, at a cost that does not grow with them (a {@code ZCOUNT}).
     */
    long countSince(Instant since);

    /**
     * Those of {@code among} last seen at or after {@code since}: work in proportion to
     * {@code among}, however many others are online, so asking about one's own people stays cheap
     * while strangers come and go by the thousand.
     */
    Set<UserId> seenSince(Instant since, Set<UserId> among);

    /** Forgets users last seen before {@code before} and returns them. */
    List<UserId> prune(Instant before);
}
