package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.LockName;
import dev.pigeonhole.domain.port.out.Lease;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InMemoryChatLockInternalsTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private final TestClock clock = new TestClock();
    private final InMemoryChatLock lock = new InMemoryChatLock(clock);
    private final LockName name = Ids.lock();

    @Test
    void a_lease_keeps_others_out_until_it_expires() {
        Lease first = lock.tryAcquire(name, LEASE).orElseThrow();
        assertThat(first.expiresAt()).isEqualTo(clock.instant().plus(LEASE));

        clock.advance(LEASE.minusMillis(1));
        assertThat(lock.tryAcquire(name, LEASE)).isEmpty();

        clock.advance(Duration.ofMillis(1));
        Lease second = lock.tryAcquire(name, LEASE).orElseThrow();
        assertThat(second.owner()).isNotEqualTo(first.owner());
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
    }

    @Test
    void a_lease_printed_in_a_log_shows_its_name_and_fencing_token_but_never_its_owner_token() {
        Lease lease = lock.tryAcquire(name, LEASE).orElseThrow();

        assertThat(lease.toString()).contains(name.toString(), "fencingToken=" + lease.fencingToken())
                .doesNotContain(lease.owner());
    }

    @Test
    void releasing_an_expired_lease_leaves_the_new_holder_alone() {
        Lease crashed = lock.tryAcquire(name, LEASE).orElseThrow();
        clock.advance(LEASE);
        Lease current = lock.tryAcquire(name, LEASE).orElseThrow();

        assertThat(lock.release(crashed)).isFalse();
        assertThat(lock.tryAcquire(name, LEASE)).isEmpty();
        assertThat(lock.release(current)).isTrue();
        assertThat(lock.release(current)).as("only once").isFalse();
    }

    @Test
    void closing_a_lease_frees_the_name_for_the_next_holder() {
        try (Lease lease = lock.tryAcquire(name, LEASE).orElseThrow()) {
            assertThat(lease.name()).isEqualTo(name);
        }

        assertThat(lock.tryAcquire(name, LEASE)).isPresent();
    }

    @Test
    void a_lease_time_must_be_more_than_zero() {
        assertThatThrownBy(() -> lock.tryAcquire(name, Duration.ZERO)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> lock.tryAcquire(name, Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidInputException.class);
    }
}
