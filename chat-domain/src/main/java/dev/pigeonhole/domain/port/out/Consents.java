package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.Consent;
import dev.pigeonhole.domain.model.consent.ConsentSnapshot;

import java.util.Objects;

/**
 * Each user's {@link Consent}: its add policy, its blocks, its pending invitations. A store keeps
 * each one whole, as its {@link ConsentSnapshot}, under a version that every write moves on; the
 * domain reads, applies the aggregate, and writes back only over the version it read (optimistic
 * concurrency), reading again if another write came first. So every rule stays in the aggregate
 * and a store only has to compare and swap: a user's consent changes seldom, and a lost race costs
 * one more round.
 *
 * <p>Any method may throw {@link dev.pigeonhole.domain.model.StoreUnavailableException}.
 */
public interface Consents {

    /**
     * The user's consent as kept, with its version; a user nothing was ever kept for has
     * {@link ConsentSnapshot#empty} at version 0.
     */
    Kept read(UserId user);

    /**
     * Keeps {@code next} as the user's consent, at version {@code version + 1}, if its version is
     * still {@code version}; otherwise changes nothing.
     *
     * @return whether it was kept
     */
    boolean replace(UserId user, long version, ConsentSnapshot next);

    /** A consent as a store keeps it: the snapshot and the version it was written at. */
    record Kept(ConsentSnapshot consent, long version) {

        public Kept {
            Objects.requireNonNull(consent, "consent");
            if (version < 0) {
                throw new IllegalArgumentException("a version is not negative, not " + version);
            }
        }
    }
}
