package dev.pigeonhole.benchmarks.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CallersTest {

    @Test
    void aFixedCountIsSharedByTheCallersAndDoneExactlyOnce() throws Exception {
        AtomicInteger done = new AtomicInteger();
        Set<Integer> callers = ConcurrentHashMap.newKeySet();

        Callers.Done result = Callers.run(16, 1_000, caller -> {
            callers.add(caller);
            done.incrementAndGet();
            return 1;
        });

        assertThat(done).hasValue(1_000);
        assertThat(result.operations()).isEqualTo(1_000);
        assertThat(result.busyNanos()).isEqualTo(1_000);
        assertThat(callers).allSatisfy(caller -> assertThat(caller).isBetween(0, 15));
    }

    @Test
    void aFailingOperationFailsTheRunWithItsOwnException() {
        assertThatThrownBy(() -> Callers.run(4, 100, caller -> {
            throw new IllegalStateException("refused");
        })).isInstanceOf(IllegalStateException.class).hasMessage("refused");
    }
}
