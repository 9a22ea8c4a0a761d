package dev.pigeonhole.testsupport;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TestClockTest {

    @Test
    void it_stands_still_until_the_test_moves_it_forward() {
        TestClock clock = new TestClock();

        assertThat(clock.instant()).isEqualTo(TestClock.START).isEqualTo(clock.instant());
        clock.advance(Duration.ofMinutes(15).plusMillis(1));

        assertThat(clock.instant()).isEqualTo(TestClock.START.plus(Duration.ofMinutes(15)).plusMillis(1));
        assertThat(clock.millis()).isEqualTo(TestClock.START.toEpochMilli() + 900_001);
    }

    @Test
    void it_keeps_whole_milliseconds_as_the_stores_do_and_never_goes_back() {
        TestClock clock = new TestClock(Instant.parse("2026-11-21T10:00:00.123Z"));

        assertThatThrownBy(() -> clock.advance(Duration.ofNanos(1_500_000))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whole milliseconds");
        assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("forward");
        assertThatThrownBy(() -> new TestClock(Instant.parse("2026-11-21T10:00:00.123456Z")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole millisecond");
        assertThat(clock.instant()).isEqualTo(Instant.parse("2026-11-21T10:00:00.123Z"));
    }
}
