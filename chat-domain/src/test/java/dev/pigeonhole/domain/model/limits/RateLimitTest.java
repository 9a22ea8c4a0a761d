package dev.pigeonhole.domain.model.limits;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.RateLimitedException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimitTest {

    private static final RateLimit FOUR_PER_SECOND = new RateLimit(4, Duration.ofSeconds(1));
    private static final long NOW = 1_000_000;

    @Test
    void a_fresh_bucket_admits_its_burst_at_once_and_then_refuses_until_one_token_is_back() {
        long fullAt = 0;
        for (int take = 1; take <= 4; take++) {
            RateLimit.Take admitted = FOUR_PER_SECOND.take(fullAt, NOW);
            assertThat(admitted.admitted()).as("take %d", take).isTrue();
            assertThat(admitted.fullAtMillis()).isEqualTo(NOW + 250L * take);
            fullAt = admitted.fullAtMillis();
        }

        RateLimit.Take refused = FOUR_PER_SECOND.take(fullAt, NOW);

        assertThat(refused.admitted()).isFalse();
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(250));
        assertThat(refused.fullAtMillis()).as("a refusal changes nothing").isEqualTo(fullAt);
        assertThat(FOUR_PER_SECOND.take(fullAt, NOW + 249).admitted()).isFalse();
        assertThat(FOUR_PER_SECOND.take(fullAt, NOW + 250).admitted()).isTrue();
    }

    @Test
    void a_bucket_full_again_long_ago_is_as_good_as_a_fresh_one() {
        assertThat(FOUR_PER_SECOND.take(NOW - 60_000, NOW)).isEqualTo(FOUR_PER_SECOND.take(0, NOW));
    }

    @Test
    void no_limit_admits_everything_and_keeps_no_state() {
        assertThat(RateLimit.NONE.take(123, NOW)).isEqualTo(new RateLimit.Take(true, 123, 0));
        assertThat(RateLimit.NONE.isNone()).isTrue();
        assertThat(RateLimit.NONE.intervalMillis()).isZero();
    }

    @Test
    void a_limit_writes_itself_as_a_count_per_period() {
        assertThat(new RateLimit(20, Duration.ofSeconds(5))).hasToString("20/5s");
        assertThat(new RateLimit(10, Duration.ofMinutes(1))).hasToString("10/1m");
        assertThat(new RateLimit(3, Duration.ofMillis(250))).hasToString("3/250ms");
        assertThat(new RateLimit(100, Duration.ofHours(2))).hasToString("100/2h");
        assertThat(new RateLimit(7, Duration.ofMillis(1500))).hasToString("7/1500ms");
        assertThat(RateLimit.NONE).hasToString("none");
    }

    @Test
    void a_limit_faster_than_a_token_a_millisecond_is_refused() {
        assertThatThrownBy(() -> new RateLimit(0, Duration.ofSeconds(5))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new RateLimit(1001, Duration.ofSeconds(1))).hasMessageContaining("faster than one token");
        assertThat(new RateLimit(1000, Duration.ofSeconds(1)).intervalMillis()).as("one a millisecond is as fast as it goes")
                .isEqualTo(1);
    }

    @Test
    void a_refusal_says_what_was_refused_and_when_to_come_back() {
        RateLimitedException refused = new RateLimit(10, Duration.ofMinutes(1)).refusal(RateLimits.Write.CREATE,
                Duration.ofMillis(5_500));

        assertThat(refused).hasMessage("too many creates: the limit is 10/1m; try again in 6 s");
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(5_500));
    }
}
