package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits.Write;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** What the quota contract cannot see: the map forgets buckets that are full again. */
class InMemoryQuotasInternalsTest {

    @Test
    void buckets_full_again_are_swept_so_only_those_who_wrote_lately_are_kept() {
        TestClock clock = new TestClock();
        InMemoryQuotas quotas = new InMemoryQuotas(clock);
        RateLimit tenAMinute = new RateLimit(10, Duration.ofMinutes(1));
        for (int user = 0; user < 100; user++) {
            quotas.take(UserId.of("once-" + user), Write.CREATE, tenAMinute);
        }
        assertThat(quotas.size()).isEqualTo(100);

        clock.advance(Duration.ofMinutes(1));
        RateLimit plenty = new RateLimit(5000, Duration.ofHours(1));
        for (int take = 100; take < InMemoryQuotas.SWEEP_EVERY; take++) {
            quotas.take(UserId.of("busy"), Write.CREATE, plenty);
        }

        assertThat(quotas.size()).as("the 100 full buckets swept, busy's kept").isEqualTo(1);
    }
}
