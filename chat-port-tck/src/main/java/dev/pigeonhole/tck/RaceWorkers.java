package dev.pigeonhole.tck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The threads of {@link ChatRacesContract}'s races: every job starts behind one gate so that the
 * jobs really overlap, the wait for them is bounded, and the first job to fail fails the test.
 * A race's own steps stay in the contract; this is only how its workers are run together.
 */
final class RaceWorkers implements AutoCloseable {

    /** One worker's job; it may throw, and the test then fails with that. */
    @FunctionalInterface
    interface Work {
        void run() throws Exception;
    }

    private final ExecutorService pool;

    RaceWorkers(String threadName) {
        AtomicInteger numbers = new AtomicInteger();
        pool = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, threadName + "-" + numbers.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Runs each job on its own thread, releases them all at once and waits for every one within
     * {@code bound}. The first failure fails the test (and stops the others); so does the bound.
     */
    void together(Duration bound, List<Work> jobs) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(jobs.size());
        CountDownLatch go = new CountDownLatch(1);
        CompletionService<Void> finished = new ExecutorCompletionService<>(pool);
        List<Future<Void>> running = new ArrayList<>();
        for (Work job : jobs) {
            running.add(finished.submit(() -> {
                ready.countDown();
                go.await();
                job.run();
                return null;
            }));
        }
        long deadline = System.nanoTime() + bound.toNanos();
        try {
            assertThat(ready.await(bound.toNanos(), TimeUnit.NANOSECONDS)).as("every worker started").isTrue();
            go.countDown();
            for (int done = 0; done < jobs.size(); done++) {
                Future<Void> next = finished.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (next == null) {
                    fail("%d of %d workers still running after %s", jobs.size() - done, jobs.size(), bound);
                }
                next.get();
            }
        } catch (ExecutionException e) {
            throw new AssertionError("a worker failed: " + e.getCause(), e.getCause());
        } finally {
            running.forEach(future -> future.cancel(true));
        }
    }

    /** Stops every worker still running and fails unless all have stopped within ten seconds. */
    @Override
    public void close() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("every worker stopped").isTrue();
    }
}
