package dev.pigeonhole.testsupport;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class OnFirstUseTest {

    @Test
    void it_is_opened_once_on_first_use_and_closed_only_if_it_was() {
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        OnFirstUse<AutoCloseable> unused = new OnFirstUse<>(() -> {
            opened.incrementAndGet();
            return closed::incrementAndGet;
        });
        unused.close();
        assertThat(opened).hasValue(0);

        OnFirstUse<AutoCloseable> used = new OnFirstUse<>(() -> {
            opened.incrementAndGet();
            return closed::incrementAndGet;
        });
        assertThat(used.get()).isSameAs(used.get());
        used.close();
        used.close();

        assertThat(opened).hasValue(1);
        assertThat(closed).hasValue(1);
    }
}
