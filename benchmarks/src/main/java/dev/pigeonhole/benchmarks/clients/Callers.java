package dev.pigeonhole.benchmarks.clients;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Callers on virtual threads, as the server has one per request, each repeating an operation
 * as fast as it returns until a deadline, or until they have done a given number between them: a
 * closed loop, whose rate is what the system behind it can do for that many callers at once.
 */
public final class Callers {

    /**
     * One caller's operation.
     */
    @FunctionalInterface
    public interface Operation {
        /**
         * Does the operation once for caller {@code caller} (0 to callers − 1).
         *
         * @return the nanoseconds that count: all of it, or the part after an untimed preparation
         */
        long once(int caller) throws Exception;
    }

    /**
     * What the callers did.
     *
     * @param operations every caller's operations, summed
     * @param busyNanos  every caller's counted nanoseconds, summed
     * @param wallNanos  from the first caller's start to the last one's end
     */
    public record Done(long operations, long busyNanos, long wallNanos) {

        /** Operations a second over the wall clock: the rate of the whole. */
        public double perSecond() {
            return operations * 1e9 / wallNanos;
        }

        /**
         * Operations a second over the counted time, as if every caller had spent all its time in
         * it: the rate of the timed part alone, as JMH reports an operation whose per-invocation
         * setup it leaves out.
         */
        double perSecondCounted(int callers) {
            return busyNanos == 0 ? Double.NaN : operations * 1e9 * callers / busyNanos;
        }
    }

    private Callers() {
    }

    /** {@code callers} virtual threads repeat {@code operation} for {@code duration}; a failure fails the run. */
    static Done run(int callers, Duration duration, Operation operation) throws Exception {
        long deadline = System.nanoTime() + duration.toNanos();
        return run(callers, () -> System.nanoTime() < deadline, operation);
    }

    /**
     * {@code callers} virtual threads share {@code operations} runs of {@code operation}, each
     * caller taking the next as soon as its last returned; a failure fails the run.
     */
    public static Done run(int callers, long operations, Operation operation) throws Exception {
        AtomicLong left = new AtomicLong(operations);
        return run(callers, () -> left.getAndDecrement() > 0, operation);
    }

    private static Done run(int callers, BooleanSupplier another, Operation operation) throws Exception {
        long start = System.nanoTime();
        List<Future<long[]>> running = new ArrayList<>(callers);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < callers; i++) {
                int caller = i;
                running.add(threads.submit(() -> {
                    long operations = 0;
                    long busy = 0;
                    while (another.getAsBoolean()) {
                        busy += operation.once(caller);
                        operations++;
                    }
                    return new long[] {operations, busy};
                }));
            }
            long operations = 0;
            long busy = 0;
            for (Future<long[]> caller : running) {
                long[] done = unwrapped(caller);
                operations += done[0];
                busy += done[1];
            }
            return new Done(operations, busy, System.nanoTime() - start);
        }
    }

    /** The caller's result, or its own exception rather than the executor's wrapper. */
    private static long[] unwrapped(Future<long[]> caller) throws Exception {
        try {
            return caller.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }
}
