package dev.pigeonhole.adapter.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of one live connection's frames that were handed over for writing and are not
 * written yet: what a client that stops reading makes the server hold. Counted in bytes, not
 * frames, because a frame may be a few bytes of presence or a message of many kilobytes.
 *
 * <p>A frame larger than the whole bound still goes out when nothing else waits, so a long
 * message never makes a reading client look slow.
 */
final class UnsentBytes {

    private final long bound;
    private final AtomicLong unsent = new AtomicLong();

    UnsentBytes(long bound) {
        this.bound = bound;
    }

    /**
     * Counts a frame about to be handed over; false, counting nothing, if it would pass the bound.
     * A frame that holds nothing (a WebSocket ping) never does, however much waits.
     */
    boolean take(int bytes) {
        while (true) {
            long now = unsent.get();
            if (bytes > 0 && now > 0 && now + bytes > bound) {
                return false;
            }
            if (unsent.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Counts a frame that must go out whatever the bound: the one word that tells a client to pull. */
    void force(int bytes) {
        unsent.addAndGet(bytes);
    }

    /** The frame was written, or will never be. */
    void release(int bytes) {
        unsent.addAndGet(-bytes);
    }
}
