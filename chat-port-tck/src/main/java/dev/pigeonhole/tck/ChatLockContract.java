package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.LockName;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Lease;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link ChatLock} promises (docs/DESIGN.md §3): a lease per name with an owner token and a
 * fencing token that grows with every grant, released only by its owner, expiring on its own.
 *
 * <p>Every test locks names of its own, so stores may be shared. The expiry tests use real time:
 * a short lease, then Awaitility polling with a bounded wait, never a sleep.
 */
@Timeout(60)
public abstract class ChatLockContract {

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final Duration SHORT = Duration.ofMillis(300);

    private final OpenStores stores = new OpenStores();
    private ChatLock lock;

    /** A fresh store, isolated from every other one alive at the same time. */
    protected abstract StoreFixture newStore(Limits limits);

    @BeforeEach
    void openStore() {
        StoreFixture store = newStore(Limits.DEFAULTS);
        stores.track(store);
        lock = store.lock();
    }

    @AfterEach
    void closeStores() {
        stores.closeAll();
    }

    @Test
    void a_free_name_is_granted_with_an_owner_and_an_expiry() {
        LockName name = randomName();
        Instant before = Instant.now();

        Lease lease = lock.tryAcquire(name, LONG).orElseThrow();

        assertThat(lease.name()).isEqualTo(name);
        assertThat(lease.owner()).isNotBlank();
        assertThat(lease.expiresAt()).isAfter(before).isBefore(Instant.now().plus(LONG).plusSeconds(1));
    }

    @Test
    void a_held_name_is_not_granted_again() {
        LockName name = randomName();
        lock.tryAcquire(name, LONG).orElseThrow();

        assertThat(lock.tryAcquire(name, LONG)).isEmpty();
    }

    @Test
    void closing_a_lease_frees_the_name() {
        LockName name = randomName();
        Lease first = lock.tryAcquire(name, LONG).orElseThrow();

        first.close();

        assertThat(lock.tryAcquire(name, LONG)).isPresent();
    }

    @Test
    void release_says_whether_it_freed_the_lease() {
        Lease lease = lock.tryAcquire(randomName(), LONG).orElseThrow();

        assertThat(lock.release(lease)).isTrue();
        assertThat(lock.release(lease)).as("a second release has nothing left to free").isFalse();
    }

    @Test
    void every_grant_of_a_name_has_a_larger_fencing_token_and_a_new_owner() {
        LockName name = randomName();
        List<Lease> grants = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            try (Lease lease = lock.tryAcquire(name, LONG).orElseThrow()) {
                grants.add(lease);
            }
        }

        assertThat(grants).extracting(Lease::fencingToken).isSorted().doesNotHaveDuplicates();
        assertThat(grants).extracting(Lease::owner).doesNotHaveDuplicates();
    }

    @Test
    void a_holder_that_dies_blocks_no_one_longer_than_its_lease() {
        LockName name = randomName();
        Lease dead = lock.tryAcquire(name, SHORT).orElseThrow();
        // The holder never closes its lease, as if its process had crashed.

        Lease next = awaitGrant(name);

        assertThat(next.fencingToken()).isGreaterThan(dead.fencingToken());
        assertThat(next.owner()).isNotEqualTo(dead.owner());
    }

    @Test
    void closing_an_expired_lease_leaves_the_newcomers_lease_alone() {
        LockName name = randomName();
        Lease expired = lock.tryAcquire(name, SHORT).orElseThrow();
        Lease newcomer = awaitGrant(name);

        assertThat(lock.release(expired)).isFalse();
        expired.close();

        assertThat(lock.tryAcquire(name, LONG)).as("the newcomer still holds the name").isEmpty();
        assertThat(lock.release(newcomer)).isTrue();
    }

    @Test
    void different_names_do_not_block_each_other() {
        lock.tryAcquire(randomName(), LONG).orElseThrow();

        assertThat(lock.tryAcquire(randomName(), LONG)).isPresent();
    }

    @Test
    void a_lease_time_that_is_not_positive_is_rejected_and_the_name_stays_free() {
        LockName name = randomName();

        assertThatThrownBy(() -> lock.tryAcquire(name, Duration.ZERO)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> lock.tryAcquire(name, Duration.ofMillis(-1)))
                .isInstanceOf(InvalidInputException.class);
        assertThat(lock.tryAcquire(name, LONG)).isPresent();
    }

    /** Polls until {@code name} is granted again, for at most a few seconds. */
    private Lease awaitGrant(LockName name) {
        return await("a grant of " + name)
                .atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(25))
                .until(() -> lock.tryAcquire(name, LONG), Optional::isPresent)
                .orElseThrow();
    }

    private static LockName randomName() {
        return LockName.of("lock-" + UUID.randomUUID());
    }
}
