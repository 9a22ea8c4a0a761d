package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.ConsentSnapshot;
import dev.pigeonhole.domain.port.out.Consents;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each user's consent in a map, compared and swapped under the map's own per-key atomicity. A
 * user nothing was kept for holds no entry, so looking someone up costs nothing.
 */
public final class InMemoryConsents implements Consents {

    private final ConcurrentHashMap<UserId, Kept> consents = new ConcurrentHashMap<>();

    @Override
    public Kept read(UserId user) {
        Kept kept = consents.get(Objects.requireNonNull(user, "user"));
        return kept != null ? kept : new Kept(ConsentSnapshot.empty(user), 0);
    }

    @Override
    public boolean replace(UserId user, long version, ConsentSnapshot next) {
        Objects.requireNonNull(next, "next");
        boolean[] replaced = {false};
        consents.compute(user, (key, kept) -> {
            long current = kept == null ? 0 : kept.version();
            if (current != version) {
                return kept;
            }
            replaced[0] = true;
            return new Kept(next, version + 1);
        });
        return replaced[0];
    }
}
