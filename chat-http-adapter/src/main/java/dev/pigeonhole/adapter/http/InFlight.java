package dev.pigeonhole.adapter.http;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The requests this server is working on, and whether it is stopping: what a graceful stop waits
 * for. A request is counted from the moment a route takes it until its answer is done (an event
 * stream until it ends), and counted before it asks whether the server is stopping, so a request
 * that was let in is always one the stop waits for.
 */
final class InFlight {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int working;
    private volatile boolean stopping;

    /** Counts one request; each must be {@link #leave}-d exactly once. */
    void enter() {
        lock.lock();
        try {
            working++;
        } finally {
            lock.unlock();
        }
    }

    void leave() {
        lock.lock();
        try {
            working--;
            if (working == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** From now on new requests are refused and readiness says no. */
    void stop() {
        stopping = true;
    }

    boolean stopping() {
        return stopping;
    }

    int working() {
        lock.lock();
        try {
            return working;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until no request is in flight, or {@code patience} has passed; answers how many are
     * still in flight then, 0 when every one finished.
     */
    int awaitIdle(Duration patience) throws InterruptedException {
        long left = patience.toNanos();
        lock.lock();
        try {
            while (working > 0 && left > 0) {
                left = idle.awaitNanos(left);
            }
            return working;
        } finally {
            lock.unlock();
        }
    }
}
