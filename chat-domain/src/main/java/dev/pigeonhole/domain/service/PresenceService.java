package dev.pigeonhole.domain.service;

import dev.pigeonhole.domain.model.Channel;
import dev.pigeonhole.domain.model.LiveEvent.PresenceChanged;
import dev.pigeonhole.domain.model.LockName;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.ListOnlineUsers;
import dev.pigeonhole.domain.port.in.PrunePresence;
import dev.pigeonhole.domain.port.in.TouchPresence;
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

/**
 * "Who's online": a user is online while it was seen within the window. The registry only
 * records sightings; the window, and so every online/offline transition, is decided here. Who
 * may see whom is the chats' business: a user sees its co-members, the members of its chats.
 */
public final class PresenceService implements TouchPresence, ListOnlineUsers, PrunePresence {

    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(15);

    /** Pruning is idempotent, so a lease that outlives a crashed pruner only delays the next run. */
    static final LockName PRUNE_LOCK = LockName.of("presence-prune");
    private static final Duration PRUNE_LEASE = Duration.ofSeconds(30);

    private final PresenceRegistry registry;
    private final Chats chats;
    private final Channels channels;
    private final ChatLock lock;
    private final Duration window;
    private final InstantSource clock;

    /** @param chats who shares a chat with whom, which decides who sees whose presence */
    public PresenceService(PresenceRegistry registry, Chats chats, Channels channels, ChatLock lock, Duration window,
                           InstantSource clock) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.chats = Objects.requireNonNull(chats, "chats");
        this.channels = Objects.requireNonNull(channels, "channels");
        this.lock = Objects.requireNonNull(lock, "lock");
        this.window = new ListOnlineUsers.Query(window).within();
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void touch(UserId user) {
        Objects.requireNonNull(user, "user");
        Instant now = clock.instant();
        Optional<Instant> previous = registry.touch(user, now);
        boolean wasOffline = previous.map(seen -> seen.isBefore(now.minus(window))).orElse(true);
        if (wasOffline) {
            channels.publish(Channel.PRESENCE, new PresenceChanged(user, true, now));
        }
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
        return Math.toIntExact(registry.countSince(clock.instant().minus(window)));
    }

    private Set<UserId> onlineAround(UserId asker, Duration within) {
        Objects.requireNonNull(asker, "asker");
        Set<UserId> visible = new HashSet<>();
        visible.add(asker);
        chats.chatsOf(asker).forEach(chat -> visible.addAll(chat.members()));
        return registry.seenSince(clock.instant().minus(within), visible);
    }

    @Override
    public int pruneStale() {
        Optional<Lease> lease = lock.tryAcquire(PRUNE_LOCK, PRUNE_LEASE);
        if (lease.isEmpty()) {
            return 0;
        }
        try (Lease held = lease.get()) {
            Instant now = clock.instant();
            List<UserId> gone = registry.prune(now.minus(window));
            gone.forEach(user -> channels.publish(Channel.PRESENCE, new PresenceChanged(user, false, now)));
            return gone.size();
        }
    }
}
