package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.RedisFailure.ErrorReply;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How often a start or a health check asks Redis for a PING, without a server: the answers are
 * the ones {@link RedisFailures} makes of what a client reports.
 */
class PingPatienceTest {

    private static final RedisSettings SETTINGS = RedisSettings.of(RedisSettings.Endpoint.single("redis://10.0.0.7:6380"))
            .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5));

    private final RedisFailures failures = new RedisFailures(SETTINGS);
    private final PingPatience patience = new PingPatience(SETTINGS);
    private final AtomicInteger asked = new AtomicInteger();

    @Test
    void a_client_that_is_reconnecting_is_asked_again_until_it_answers() {
        boolean answered = patience.answered("redis", () -> false, deadline -> {
            if (asked.incrementAndGet() < 3) {
                throw failures.unavailable("PING", new RedisFailure.NoAnswer(RedisFailure.Trouble.REFUSED, "Connection refused"), null);
            }
            return true;
        });

        assertThat(answered).isTrue();
        assertThat(asked).hasValue(3);
    }

    @Test
    void refused_credentials_are_a_no_at_once_since_no_reconnect_mends_them() {
        boolean answered = patience.answered("redis", () -> false, deadline -> {
            asked.incrementAndGet();
            throw failures.unavailable("PING", new ErrorReply("WRONGPASS invalid username-password pair"), null);
        });

        assertThat(answered).isFalse();
        assertThat(asked).as("not asked again for the ten seconds of patience").hasValue(1);
    }
}
