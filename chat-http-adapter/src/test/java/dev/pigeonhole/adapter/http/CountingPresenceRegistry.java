package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real registry that counts the questions about everyone online, the calls a scrape of /metrics
 * could cost, and the sightings recorded, the calls a signed-in request could cost.
 */
final class CountingPresenceRegistry implements PresenceRegistry {

    private final PresenceRegistry real;
    private final AtomicInteger everyoneOnlineReads = new AtomicInteger();
    private final AtomicInteger touches = new AtomicInteger();

    CountingPresenceRegistry(PresenceRegistry real) {
        this.real = real;
    }

    int everyoneOnlineReads() {
        return everyoneOnlineReads.get();
    }

    int touches() {
        return touches.get();
    }

    @Override
    public Optional<Instant> touch(UserId user, Instant at) {
        touches.incrementAndGet();
        return real.touch(user, at);
    }

    @Override
    public Set<UserId> seenSince(Instant since) {
        everyoneOnlineReads.incrementAndGet();
        return real.seenSince(since);
    }

    @Override
    public long countSince(Instant since) {
        everyoneOnlineReads.incrementAndGet();
        return real.countSince(since);
    }

    @Override
    public Set<UserId> seenSince(Instant since, Set<UserId> among) {
        return real.seenSince(since, among);
    }

    @Override
    public List<UserId> prune(Instant before) {
        return real.prune(before);
    }
}
