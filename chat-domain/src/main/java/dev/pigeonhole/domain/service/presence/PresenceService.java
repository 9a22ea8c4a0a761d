package dev.pigeonhole.domain.service.presence;

import dev.pigeonhole.domain.model.LockName;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent.PresenceChanged;
import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import dev.pigeonhole.domain.port.in.presence.PrunePresence;
import dev.pigeonhole.domain.port.in.presence.TouchPresence;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Lease;
import dev.pigeonhole.domain.port.out.PresenceRegistry;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * "Who's online": a user is online while it was seen within the window. The registry only
 * records sightings; the window, and so every online/offline transition, is decided here. Who
 * may see whom is the chats' business: a user sees its co-members, the members of its chats.
 *
 * <p>A signed-in request is a sighting, and a user's requests come many a second, so this
 * instance sends a user's sighting to the registry at most once per {@link #TOUCH_INTERVAL}:
 * the rest tell the window nothing new, and on a networked store each would be a round trip.
 * The registry's last-seen then lags a user's latest sighting by less than the interval, so
 * every look back (who is online, who went offline, who comes back) reaches the interval further
 * than the window asked for: a user seen within the window is never missed, and one seen just
 * before it may count a second longer. Which users were recorded when is remembered for at most
 * {@link #MAX_REMEMBERED} users and for one interval; past the bound a sighting goes to the
 * registry as it would without the throttle, so the bound costs round trips, never correctness.
 */
public final class PresenceService implements TouchPresence, ListOnlineUsers, PrunePresence {

    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(15);

    /** Pruning is idempotent, so a lease that outlives a crashed pruner only delays the next run. */
    static final LockName PRUNE_LOCK = LockName.of("presence-prune");
    private static final Duration PRUNE_LEASE = Duration.ofSeconds(30);

    /** How often at most this instance records a sighting of one user. */
    public static final Duration TOUCH_INTERVAL = Duration.ofSeconds(1);
    /**
     * The most users whose last recorded sighting this instance remembers at once: a user and a
     * boxed time in a hash map, about 100 bytes each, so a few megabytes at most.
     */
    public static final int MAX_REMEMBERED = 65_536;

    private final PresenceRegistry registry;
    private final Chats chats;
    private final Channels channels;
    private final ChatLock lock;
    private final Duration window;
    private final MillisecondClock clock;
    /** Epoch millis of the sighting of each user this instance last sent to the registry. */
    private final ConcurrentHashMap<UserId, Long> recorded = new ConcurrentHashMap<>();
    /** When (epoch millis) {@link #recorded} is next rid of what is older than the interval. */
    private final AtomicLong nextSweep = new AtomicLong(Long.MIN_VALUE);

    /** @param chats who shares a chat with whom, which decides who sees whose presence */
    public PresenceService(PresenceRegistry registry, Chats chats, Channels channels, ChatLock lock, Duration window,
                           InstantSource clock) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.chats = Objects.requireNonNull(chats, "chats");
        this.channels = Objects.requireNonNull(channels, "channels");
        this.lock = Objects.requireNonNull(lock, "lock");
        this.window = new ListOnlineUsers.Query(window).within();
        // Read to the millisecond here, once: every store keeps times so.
        this.clock = MillisecondClock.of(clock);
    }

    @Override
    public void touch(UserId user) {
        Objects.requireNonNull(user, "user");
        Instant now = clock.instant();
        long millis = now.toEpochMilli();
        if (!claim(user, millis)) {
            return;
        }
        Optional<Instant> previous;
        try {
            previous = registry.touch(user, now);
        } catch (RuntimeException e) {
            // Not recorded after all: the next request tries again rather than a second later.
            recorded.remove(user, millis);
            throw e;
        }
        boolean wasOffline = previous.map(seen -> seen.isBefore(now.minus(lookBack(window)))).orElse(true);
        if (wasOffline) {
            channels.publish(Channel.PRESENCE, new PresenceChanged(user, true, now));
        }
    }

    /**
     * True if this sighting is to go to the registry: none of the user's went there within the
     * interval, or the clock went back. Atomic per user, so two requests at once send one.
     */
    private boolean claim(UserId user, long now) {
        forgetOld(now);
        boolean[] claimed = {false};
        recorded.compute(user, (who, last) -> {
            if (last != null && now >= last && now - last < TOUCH_INTERVAL.toMillis()) {
                return last;
            }
            claimed[0] = true;
            // Full: sent, but not remembered, so the user's next sighting is sent too.
            return last == null && recorded.size() >= MAX_REMEMBERED ? null : now;
        });
        return claimed[0];
    }

    /**
     * Drops what is older than the interval, at most once an interval: an entry that old throttles
     * nothing, so the map holds the users seen in the last interval or two, up to its bound.
     */
    private void forgetOld(long now) {
        long due = nextSweep.get();
        if (now >= due && nextSweep.compareAndSet(due, now + TOUCH_INTERVAL.toMillis())) {
            recorded.values().removeIf(last -> now - last >= TOUCH_INTERVAL.toMillis() || last > now);
        }
    }

    /** How many users' last recorded sighting this instance remembers now; for tests of the bound. */
    int remembered() {
        return recorded.size();
    }

    /** A look back of {@code within}, widened by how far a recorded sighting may lag. */
    private static Duration lookBack(Duration within) {
        return within.plus(TOUCH_INTERVAL);
    }

    @Override
    public Set<UserId> online(UserId asker) {
        return onlineAround(asker, window);
    }

    @Override
    public Set<UserId> online(UserId asker, ListOnlineUsers.Query query) {
        return onlineAround(asker, query.within());
    }

    @Override
    public int onlineCount() {
        return Math.toIntExact(registry.countSince(clock.instant().minus(lookBack(window))));
    }

    private Set<UserId> onlineAround(UserId asker, Duration within) {
        Objects.requireNonNull(asker, "asker");
        Set<UserId> visible = new HashSet<>();
        visible.add(asker);
        chats.chatsOf(asker).forEach(chat -> visible.addAll(chat.members()));
        return registry.seenSince(clock.instant().minus(lookBack(within)), visible);
    }

    @Override
    public int pruneStale() {
        Optional<Lease> lease = lock.tryAcquire(PRUNE_LOCK, PRUNE_LEASE);
        if (lease.isEmpty()) {
            return 0;
        }
        try (Lease held = lease.get()) {
            Instant now = clock.instant();
            List<UserId> gone = registry.prune(now.minus(lookBack(window)));
            gone.forEach(user -> channels.publish(Channel.PRESENCE, new PresenceChanged(user, false, now)));
            return gone.size();
        }
    }
}
