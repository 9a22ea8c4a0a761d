package dev.pigeonhole.adapter.redis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs listener calls one at a time, in the order they were handed in, on the threads that hand
 * them in, and stops for good at {@link #close()}.
 *
 * <p>A client may hand messages over on several threads: Lettuce on a cluster has a Netty event
 * loop per node connection, and GLIDE's core calls back on threads of its own, so the client
 * alone does not make the calls sequential. A lock would make one thread wait for another;
 * instead whichever thread finds nobody delivering drains the queue, and the others only enqueue
 * and return. No thread ever waits here except
 * {@link #close()}, for the one call that may be running.
 */
public final class SerialDelivery {

    private static final Logger LOG = LoggerFactory.getLogger(SerialDelivery.class);

    private final String name;
    private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    /** Held around each call, so that {@link #close()} can wait for the running one. */
    private final Object callLock = new Object();
    private volatile boolean closed;
    private volatile Thread calling;

    public SerialDelivery(String name) {
        this.name = name;
    }

    public void submit(Runnable call) {
        if (closed) {
            return;
        }
        pending.add(call);
        // Re-check after releasing: a call enqueued while the drainer was finishing would
        // otherwise wait for the next message.
        while (!pending.isEmpty() && draining.compareAndSet(false, true)) {
            try {
                drain();
            } finally {
                draining.set(false);
            }
        }
    }

    private void drain() {
        Runnable call;
        while ((call = pending.poll()) != null) {
            synchronized (callLock) {
                if (closed) {
                    pending.clear();
                    return;
                }
                calling = Thread.currentThread();
                try {
                    call.run();
                } catch (RuntimeException e) {
                    // The listener's bug must not stop delivery nor reach the client's thread.
                    LOG.error("{}: the subscription listener failed", name, e);
                } finally {
                    calling = null;
                }
            }
        }
    }

    /** True on the thread that is running a listener call right now. */
    public boolean isCallingOnThisThread() {
        return calling == Thread.currentThread();
    }

    /** After this returns no call starts; a call running on another thread is waited for. */
    public void close() {
        closed = true;
        synchronized (callLock) {
            pending.clear();
        }
    }
}
