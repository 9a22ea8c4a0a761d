package dev.pigeonhole.domain.model;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimitTest {

    private static final RateLimit FOUR_PER_SECOND = RateLimit.parse("4/1s");
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
    void limits_are_written_as_a_count_per_period() {
        assertThat(RateLimit.parse("20/5s")).isEqualTo(new RateLimit(20, Duration.ofSeconds(5)));
        assertThat(RateLimit.parse("10/1m")).isEqualTo(new RateLimit(10, Duration.ofMinutes(1)));
        assertThat(RateLimit.parse("3/250ms")).isEqualTo(new RateLimit(3, Duration.ofMillis(250)));
        assertThat(RateLimit.parse("100/2h")).isEqualTo(new RateLimit(100, Duration.ofHours(2)));
        assertThat(RateLimit.parse("none")).isEqualTo(RateLimit.NONE);
        for (String written : new String[]{"20/5s", "10/1m", "3/250ms", "100/2h", "none", "7/1500ms"}) {
            assertThat(RateLimit.parse(written)).hasToString(written);
        }
    }

    @Test
    void a_limit_written_wrong_says_how_to_write_it() {
        assertThatThrownBy(() -> RateLimit.parse("fast")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("20/5s");
        assertThatThrownBy(() -> RateLimit.parse("x/5s")).hasMessageContaining("whole number");
        assertThatThrownBy(() -> RateLimit.parse("5/5 s")).hasMessageContaining("ms, s, m or h");
        assertThatThrownBy(() -> RateLimit.parse("0/5s")).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> RateLimit.parse("2000/1s")).hasMessageContaining("faster than one token");
        assertThatThrownBy(() -> RateLimit.parse("1001/1s")).hasMessageContaining("faster than one token");
        assertThat(RateLimit.parse("1000/1s").intervalMillis()).as("one a millisecond is as fast as it goes")
                .isEqualTo(1);
        assertThatThrownBy(() -> RateLimit.parse("5/s")).hasMessageContaining("ms, s, m or h");
    }

    @Test
    void a_refusal_says_what_was_refused_and_when_to_come_back() {
        RateLimitedException refused = new RateLimitedException(RateLimits.Write.CREATE, RateLimit.parse("10/1m"),
                Duration.ofMillis(5_500));

        assertThat(refused).hasMessage("too many creates: the limit is 10/1m; try again in 6 s");
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(5_500));
    }
}
