package dev.pigeonhole.domain.service.live;

import dev.pigeonhole.domain.model.limits.PendingBudget;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * How many live feeds of this process may read the store for a catch-up at once. After a store
 * outage or a deploy, every client reconnects at the same moment, and each new feed reads what is
 * pending; unbounded, those reads would take every pooled store connection and fail the ordinary
 * requests waiting behind them. So a feed waits its turn, first come first served, for a bounded
 * time; one whose turn does not come tells its client to resync instead, which is never wrong.
 *
 * <p>Each catch-up holds what one fetch of pending messages may ({@link PendingBudget}); a chat
 * left short is followed by a resync, and the client pulls the rest.
 *
 * <p>A feed reads on its reader's thread; this only makes that thread wait, and starts none.
 */
public final class LiveCatchUps {

    /** Well below a store's connection pool, which the ordinary requests need too. */
    public static final int DEFAULT_CONCURRENT = 16;
    /** Long enough to ride out a storm of reconnects, short enough that a client soon hears something. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);

    private final Semaphore turns;
    private final Duration wait;
    private final PendingBudget budget;

    public LiveCatchUps(int concurrent, Duration wait, PendingBudget budget) {
        if (concurrent < 1) {
            throw new IllegalArgumentException("concurrent catch-ups must be at least 1, not " + concurrent);
        }
        if (wait.isNegative()) {
            throw new IllegalArgumentException("the wait for a catch-up must not be negative, not " + wait);
        }
        this.turns = new Semaphore(concurrent, true);
        this.wait = wait;
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    public LiveCatchUps(int concurrent, Duration wait) {
        this(concurrent, wait, PendingBudget.DEFAULTS);
    }

    public static LiveCatchUps defaults() {
        return new LiveCatchUps(DEFAULT_CONCURRENT, DEFAULT_WAIT);
    }

    PendingBudget budget() {
        return budget;
    }

    /**
     * What {@code read} answers, read in turn; empty if the turn did not come within the wait. A
     * store failure goes to the caller.
     */
    <T> Optional<T> inTurn(Supplier<T> read) throws InterruptedException {
        if (!turns.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
            return Optional.empty();
        }
        try {
            return Optional.of(read.get());
        } finally {
            turns.release();
        }
    }
}
