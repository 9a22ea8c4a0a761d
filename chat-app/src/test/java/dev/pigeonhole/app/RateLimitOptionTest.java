package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.limits.RateLimit;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimitOptionTest {

    private final RateLimitOption option = new RateLimitOption();

    @Test
    void limits_are_written_as_a_count_per_period() {
        assertThat(option.convert("20/5s")).isEqualTo(new RateLimit(20, Duration.ofSeconds(5)));
        assertThat(option.convert("10/1m")).isEqualTo(new RateLimit(10, Duration.ofMinutes(1)));
        assertThat(option.convert("3/250ms")).isEqualTo(new RateLimit(3, Duration.ofMillis(250)));
        assertThat(option.convert("100/2h")).isEqualTo(new RateLimit(100, Duration.ofHours(2)));
        assertThat(option.convert("none")).isEqualTo(RateLimit.NONE);
        for (String written : new String[]{"20/5s", "10/1m", "3/250ms", "100/2h", "none", "7/1500ms"}) {
            assertThat(option.convert(written)).as("a limit reads back as it writes itself").hasToString(written);
        }
    }

    @Test
    void a_limit_written_wrong_says_how_to_write_it() {
        assertThatThrownBy(() -> option.convert("fast")).isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessageContaining("20/5s");
        assertThatThrownBy(() -> option.convert("x/5s")).hasMessageContaining("whole number");
        assertThatThrownBy(() -> option.convert("5/5 s")).hasMessageContaining("ms, s, m or h");
        assertThatThrownBy(() -> option.convert("5/s")).hasMessageContaining("ms, s, m or h");
        assertThatThrownBy(() -> option.convert("1/99999999999999999999h")).hasMessageContaining("too long");
    }

    @Test
    void what_the_domain_refuses_is_refused_in_its_words() {
        assertThatThrownBy(() -> option.convert("0/5s")).isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessageContaining("at least 1");
        assertThatThrownBy(() -> option.convert("2000/1s")).hasMessageContaining("faster than one token");
    }
}
