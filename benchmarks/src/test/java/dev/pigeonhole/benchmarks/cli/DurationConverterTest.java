package dev.pigeonhole.benchmarks.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationConverterTest {

    @Test
    void readsUnitsBareSecondsAndIso() {
        assertThat(DurationConverter.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(DurationConverter.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DurationConverter.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(DurationConverter.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(DurationConverter.parse("10")).isEqualTo(Duration.ofSeconds(10));
        assertThat(DurationConverter.parse("2.5")).isEqualTo(Duration.ofMillis(2500));
        assertThat(DurationConverter.parse("PT90S")).isEqualTo(Duration.ofSeconds(90));
        assertThat(DurationConverter.parse("pt10m")).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void refusesWhatIsNoDuration() {
        assertThatThrownBy(() -> DurationConverter.parse("soon")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("soon");
        assertThatThrownBy(() -> DurationConverter.parse("-3s")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DurationConverter.parse("3 days")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DurationConverter.parse("PTx")).isInstanceOf(IllegalArgumentException.class);
    }
}
