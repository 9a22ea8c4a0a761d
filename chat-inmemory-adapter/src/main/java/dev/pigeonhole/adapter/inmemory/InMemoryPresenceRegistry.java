package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.PresenceRegistry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Last-seen times in memory, shaped like the Redis ZSET it stands for: a map from user to time for
 * lookups, and the same pairs sorted by time, so that "seen since" and "not seen since" read only
 * the users they return instead of every user there is.
 *
 * <p>Both structures are changed only inside {@link ConcurrentHashMap#compute} for the user, so
 * each user's updates are atomic and the two agree. A reader of the sorted set may briefly meet a
 * user twice (the new sighting is added before the old is removed), which is harmless: times only
 * move forward, and results are sets.
 */
public final class InMemoryPresenceRegistry implements PresenceRegistry {

    /** One entry of the sorted index. A null user sorts first, to mark a point in time in range queries. */
    private record Sighting(Instant at, UserId user) {
    }

    private static final Comparator<Sighting> BY_TIME = Comparator.comparing(Sighting::at)
            .thenComparing(Sighting::user, Comparator.nullsFirst(Comparator.naturalOrder()));

    private final ConcurrentHashMap<UserId, Instant> lastSeen = new ConcurrentHashMap<>();
    private final ConcurrentSkipListSet<Sighting> byTime = new ConcurrentSkipListSet<>(BY_TIME);

    @Override
    public Optional<Instant> touch(UserId user, Instant at) {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(at, "at");
        AtomicReference<Instant> previous = new AtomicReference<>();
        lastSeen.compute(user, (key, seen) -> {
            previous.set(seen);
            if (seen != null && !at.isAfter(seen)) {
                return seen;
            }
            byTime.add(new Sighting(at, key));
            if (seen != null) {
                byTime.remove(new Sighting(seen, key));
            }
            return at;
        });
        return Optional.ofNullable(previous.get());
    }

    @Override
    public Set<UserId> seenSince(Instant since) {
        Set<UserId> users = new HashSet<>();
        for (Sighting sighting : byTime.tailSet(pointInTime(since), true)) {
            users.add(sighting.user());
        }
        return Set.copyOf(users);
    }

    /** Counted through the users themselves, since a reader may briefly meet one twice. */
    @Override
    public long countSince(Instant since) {
        return seenSince(since).size();
    }

    @Override
    public Set<UserId> seenSince(Instant since, Set<UserId> among) {
        Set<UserId> users = new HashSet<>();
        for (UserId user : among) {
            Instant seen = lastSeen.get(user);
            if (seen != null && !seen.isBefore(since)) {
                users.add(user);
            }
        }
        return Set.copyOf(users);
    }

    /** Oldest first. */
    @Override
    public List<UserId> prune(Instant before) {
        List<Sighting> stale = new ArrayList<>(byTime.headSet(pointInTime(before), false));
        List<UserId> pruned = new ArrayList<>();
        for (Sighting sighting : stale) {
            lastSeen.computeIfPresent(sighting.user(), (user, seen) -> {
                if (!seen.isBefore(before)) {
                    return seen; // touched again since we looked: still here
                }
                byTime.remove(new Sighting(seen, user));
                pruned.add(user);
                return null;
            });
        }
        return List.copyOf(pruned);
    }

    private static Sighting pointInTime(Instant at) {
        return new Sighting(Objects.requireNonNull(at, "instant"), null);
    }
}
