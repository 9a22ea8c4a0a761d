package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.RateLimit;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How a chat keeps its senders' buckets: each until it is full again, and not a millisecond
 * longer or shorter, however the buckets' times come to coincide or move. What the chat does with
 * them is {@link ChatTest}'s to show; here the bookkeeping under it.
 */
class SendBucketsTest {

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final UserId CAROL = UserId.of("carol");
    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
    /** One token every 100 ms, none held back. */
    private static final RateLimit ONE_PER_100_MS = new RateLimit(1, Duration.ofMillis(100));
    /** One token every 100 ms, two held at most. */
    private static final RateLimit TWO_PER_200_MS = new RateLimit(2, Duration.ofMillis(200));

    private final SendBuckets buckets = new SendBuckets();

    private static long millis(long afterT0) {
        return T0.plusMillis(afterT0).toEpochMilli();
    }

    @Test
    void a_bucket_forgotten_once_full_and_then_drawn_on_again_is_kept_until_it_is_full_again() {
        buckets.takeSendToken(ALICE, ONE_PER_100_MS, T0);
        buckets.takeSendToken(ALICE, ONE_PER_100_MS, T0.plusMillis(100));

        assertThatExceptionOfType(RateLimitedException.class)
                .isThrownBy(() -> buckets.takeSendToken(ALICE, ONE_PER_100_MS, T0.plusMillis(150)));
        assertThat(buckets.snapshot()).isEqualTo(Map.of(ALICE, millis(200)));
    }

    @Test
    void senders_full_at_the_same_moment_are_each_forgotten_then_though_one_of_them_sent_again() {
        buckets.takeSendToken(ALICE, TWO_PER_200_MS, T0);
        buckets.takeSendToken(BOB, TWO_PER_200_MS, T0);
        buckets.takeSendToken(ALICE, TWO_PER_200_MS, T0.plusMillis(50));

        buckets.takeSendToken(CAROL, TWO_PER_200_MS, T0.plusMillis(150));

        assertThat(buckets.snapshot()).as("bob's bucket was full again at 100 ms")
                .isEqualTo(Map.of(ALICE, millis(200), CAROL, millis(250)));
    }

    @Test
    void a_sender_whose_bucket_fills_later_after_another_send_is_not_forgotten_at_the_earlier_time() {
        buckets.takeSendToken(ALICE, TWO_PER_200_MS, T0);
        buckets.takeSendToken(ALICE, TWO_PER_200_MS, T0.plusMillis(50));

        buckets.takeSendToken(BOB, TWO_PER_200_MS, T0.plusMillis(150));

        assertThat(buckets.snapshot()).as("alice's bucket is not full until 200 ms")
                .isEqualTo(Map.of(ALICE, millis(200), BOB, millis(250)));
    }
}
