package dev.pigeonhole.benchmarks.load;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** One fan-out round: one message to the large chat, and when it reached each member's socket. */
final class FanOutRound {

    /** How long a round waits for every socket; a socket that never hears counts as this. */
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    final int number;
    final long[] arrivals;
    final AtomicInteger count = new AtomicInteger();
    final CountDownLatch all;
    volatile long start;

    FanOutRound(int number, int members) {
        this.number = number;
        this.arrivals = new long[members];
        this.all = new CountDownLatch(members);
    }

    void arrived(long at) {
        int i = count.getAndIncrement();
        if (i < arrivals.length) {
            arrivals[i] = at;
            all.countDown();
        }
    }

    /** Until the last socket that got it: a socket that never got it makes the round count as its timeout. */
    double lastMillis() {
        if (all.getCount() > 0) {
            return TIMEOUT.toMillis();
        }
        return (Arrays.stream(arrivals).max().orElse(start) - start) / 1e6;
    }

    double medianMillis() {
        long[] sorted = Arrays.copyOf(arrivals, Math.min(count.get(), arrivals.length));
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : (sorted[sorted.length / 2] - start) / 1e6;
    }
}
