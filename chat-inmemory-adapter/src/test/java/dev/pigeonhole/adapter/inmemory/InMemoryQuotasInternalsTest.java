package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.RateLimit;
import dev.pigeonhole.domain.model.RateLimits.Write;
import dev.pigeonhole.domain.model.UserId;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** What the quota contract cannot see: the map forgets buckets that are full again. */
class InMemoryQuotasInternalsTest {

    @Test
    void buckets_full_again_are_swept_so_only_those_who_wrote_lately_are_kept() {
        MutableClock clock = new MutableClock();
        InMemoryQuotas quotas = new InMemoryQuotas(clock);
        RateLimit tenAMinute = RateLimit.parse("10/1m");
        for (int user = 0; user < 100; user++) {
            quotas.take(UserId.of("once-" + user), Write.CREATE, tenAMinute);
        }
        assertThat(quotas.size()).isEqualTo(100);

        clock.advance(Duration.ofMinutes(1));
        RateLimit plenty = RateLimit.parse("5000/1h");
        for (int take = 100; take < InMemoryQuotas.SWEEP_EVERY; take++) {
            quotas.take(UserId.of("busy"), Write.CREATE, plenty);
        }

        assertThat(quotas.size()).as("the 100 full buckets swept, busy's kept").isEqualTo(1);
    }
}
