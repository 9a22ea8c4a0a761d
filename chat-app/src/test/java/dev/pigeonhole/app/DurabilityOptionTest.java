package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurabilityOptionTest {

    private final DurabilityOption option = new DurabilityOption();

    @Test
    void durability_is_none_or_a_count_of_replicas_with_an_optional_timeout_in_ms() {
        assertThat(option.convert("none")).isEqualTo(Durability.NONE);
        assertThat(option.convert("replicas=1")).isEqualTo(new Durability(1, Duration.ofSeconds(1)));
        assertThat(option.convert("replicas=2,timeout=250")).isEqualTo(new Durability(2, Duration.ofMillis(250)));
        assertThat(option.convert("timeout=60000,replicas=16")).isEqualTo(new Durability(16, Duration.ofMinutes(1)));
        assertThat(option.convert("replicas=1,timeout=1")).isEqualTo(new Durability(1, Duration.ofMillis(1)));
        for (String written : new String[]{"none", "replicas=1,timeout=500", "replicas=3,timeout=1000"}) {
            assertThat(option.convert(written)).as("a durability reads back as it writes itself").hasToString(written);
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "replicas=0               | replicas is '0'",
            "replicas=17              | replicas is '17'",
            "replicas=x               | replicas is 'x'",
            "replicas=-1              | replicas is '-1'",
            "replicas=+1              | replicas is '+1'",
            "replicas=                | replicas is ''",
            "replicas=99999999999     | replicas is '99999999999'",
            "replicas=1,timeout=0     | timeout is '0'",
            "replicas=1,timeout=60001 | timeout is '60001'",
            "replicas=1,timeout=1s    | timeout is '1s'",
            "replica=1                | 'replica' is not replicas or timeout",
            "replicas=1,wait=5        | 'wait' is not replicas or timeout",
            "replicas                 | replicas has no value",
            "replicas=1,replicas=2    | replicas is given twice",
            "replicas=1,timeout=5,timeout=5 | timeout is given twice",
            "timeout=500              | replicas is missing",
            "replicas=1,              | '' is not replicas or timeout",
            "NONE                     | 'NONE' is not replicas or timeout",
            "\"\"                       | '' is not replicas or timeout"})
    void a_value_written_wrong_says_what_is_wrong_and_what_is_allowed(String value, String wrong) {
        assertThatThrownBy(() -> option.convert(value)).isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessage(wrong + "; write none, or replicas=N[,timeout=MS] with N from 1 to 16 and MS from 1 to "
                        + "60000 (1000 if left out)");
    }

    @Test
    void the_wait_must_end_before_the_redis_command_timeout_gives_up_on_the_call() {
        RedisConfig redis = RedisConfig.defaults().withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(2000));

        assertThat(redis.withDurability(option.convert("replicas=1,timeout=1999")).durability().timeout())
                .isEqualTo(Duration.ofMillis(1999));
        assertThatThrownBy(() -> redis.withDurability(option.convert("replicas=1,timeout=2000")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--redis-durability waits up to 2000 ms for replicas, which must be below the Redis command "
                        + "timeout of 2000 ms, after which the clients give up on the call");
        assertThat(RedisConfig.defaults().durability()).isEqualTo(Durability.NONE);
    }
}
