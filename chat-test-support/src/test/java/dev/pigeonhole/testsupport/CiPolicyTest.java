package dev.pigeonhole.testsupport;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CiPolicyTest {

    @Test
    void what_is_missing_skips_the_test_and_fails_it_only_on_ci() {
        Class<? extends Throwable> expected = CiPolicy.onCi() ? AssertionError.class : TestAbortedException.class;

        assertThatThrownBy(() -> CiPolicy.unavailable("no such server")).isInstanceOf(expected)
                .hasMessageContaining("no such server");
    }
}
