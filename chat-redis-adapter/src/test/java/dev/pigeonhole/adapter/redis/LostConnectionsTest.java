package dev.pigeonhole.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** "Tell the listener once, after every connection is back", without a connection in sight. */
class LostConnectionsTest {

    private final AtomicInteger announcements = new AtomicInteger();
    private final LostConnections<String> lost = new LostConnections<>(announcements::incrementAndGet);

    @Test
    void the_listener_hears_once_when_the_last_lost_connection_is_back() {
        lost.lost("node-a");
        lost.lost("node-b");
        lost.lost("node-c");

        lost.back("node-b");
        lost.back("node-a");
        assertThat(announcements).as("while node-c is still resubscribing").hasValue(0);
        assertThat(lost.isLost("node-c")).isTrue();

        lost.back("node-c");
        assertThat(announcements).hasValue(1);
        assertThat(lost.isLost("node-c")).isFalse();
    }

    @Test
    void a_connection_that_was_never_lost_coming_back_announces_nothing() {
        lost.back("node-a");
        lost.lost("node-b");
        lost.back("node-a");

        assertThat(announcements).hasValue(0);
    }

    @Test
    void a_connection_lost_twice_before_it_is_back_is_one_outage() {
        lost.lost("node-a");
        lost.lost("node-a");
        lost.back("node-a");
        lost.back("node-a");

        assertThat(announcements).hasValue(1);
    }

    @Test
    void giving_up_on_a_connection_that_will_never_return_can_end_the_recovery() {
        lost.lost("node-a");
        lost.lost("removed-node");
        lost.back("node-a");
        assertThat(announcements).hasValue(0);

        lost.forgetIf(connection -> connection.startsWith("removed"));

        assertThat(announcements).hasValue(1);
    }

    @Test
    void forgetting_nothing_announces_nothing() {
        lost.forgetIf(connection -> true);
        lost.lost("node-a");
        lost.forgetIf(connection -> false);

        assertThat(announcements).hasValue(0);
    }

    @Test
    void each_outage_is_announced_after_it_ends() {
        lost.lost("node-a");
        lost.back("node-a");
        lost.lost("node-a");
        lost.back("node-a");

        assertThat(announcements).hasValue(2);
    }

    @Test
    void connections_coming_back_on_many_threads_at_once_are_announced_once() throws Exception {
        List<String> nodes = IntStream.range(0, 64).mapToObj(i -> "node-" + i).toList();
        nodes.forEach(lost::lost);
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<Object>> returns = nodes.stream().map(node -> pool.submit(() -> {
                start.await();
                lost.back(node);
                return null;
            })).toList();
            start.countDown();
            for (Future<?> back : returns) {
                back.get();
            }
        }

        assertThat(announcements).hasValue(1);
    }
}
