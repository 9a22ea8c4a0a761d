package dev.pigeonhole.benchmarks.load;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * When each send of a load run is due, and every latency measured from that due time rather
 * than from when a thread got round to the send: the load generator's pacing and recording,
 * apart from its HTTP and sockets so that they can be tested without a server.
 *
 * <p>Send {@code seq} is due at {@code begin + seq × interval}, whatever happened before it.
 * Measuring from the moment the HTTP call starts would leave out any wait before it: a pacer
 * held up by a pause, an executor slow to start the call, a connection pool that had none free.
 * A server that stalls for a second makes the sends due in that second start late, and a
 * generator that measures from their start records them as fast as ever: the stall vanishes from
 * the percentiles, which is coordinated omission. From the due time, each of those sends carries
 * its whole wait. How late the calls themselves started is kept apart ({@link #startLag()}), so
 * that a run can tell a slow server from a generator that fell behind.
 *
 * <p>Sends of the warm-up ({@code seq < warmupSends}) are paced like the others but recorded
 * nowhere. The client comparison ({@code dev.pigeonhole.benchmarks.clients}) paces its sends with it
 * too, each send's "arrival" being its return, with one member.
 */
public final class SendSchedule {

    private final long begin;
    private final long interval;
    private final long warmupSends;
    private final long totalSends;

    private final Recorder latency = new Recorder(3);
    /** Per message, from when it was due to its arrival on the last of its chat's sockets. */
    private final Recorder lastSocket = new Recorder(3);
    /** From when a send was due to when its HTTP call started: the generator's own lateness. */
    private final Recorder startLag = new Recorder(3);
    /** How many of its chat's sockets each message has reached, by sequence number. */
    private final AtomicIntegerArray reached;

    private final Histogram latencySoFar = new Histogram(3);
    private final Histogram lastSocketSoFar = new Histogram(3);
    private final Histogram startLagSoFar = new Histogram(3);

    /**
     * @param begin    the first send's due time, in {@link System#nanoTime()}'s terms
     * @param interval nanoseconds between two sends' due times: one over the rate
     */
    public SendSchedule(long begin, long interval, long warmupSends, long totalSends) {
        if (interval <= 0 || warmupSends < 0 || totalSends <= warmupSends || totalSends > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a schedule needs a positive interval and 1 to 2^31 - 9 measured sends");
        }
        this.begin = begin;
        this.interval = interval;
        this.warmupSends = warmupSends;
        this.totalSends = totalSends;
        this.reached = new AtomicIntegerArray((int) totalSends);
    }

    long due(long seq) {
        return begin + seq * interval;
    }

    long begin() {
        return begin;
    }

    long interval() {
        return interval;
    }

    /** When the first measured send is due: the warm-up is over. */
    long measuredFrom() {
        return due(warmupSends);
    }

    public long totalSends() {
        return totalSends;
    }

    /** Whether a send is one of the measured ones (not warm-up, not another run's). */
    boolean measured(long seq) {
        return seq >= warmupSends && seq < totalSends;
    }

    /**
     * Issues every send in order, each once its due time has come on {@code clock}. A send already
     * due when the one before it is issued goes at once: after a hold-up the sends it owes leave
     * back to back instead of being skipped, so the rate asked of the server stays the one set.
     *
     * @param park  waits about the given nanoseconds ({@code LockSupport::parkNanos})
     * @param issue hands send {@code seq} over; it should return at once
     */
    public void pace(LongSupplier clock, LongConsumer park, LongConsumer issue) {
        for (long seq = 0; seq < totalSends; seq++) {
            long wait;
            while ((wait = due(seq) - clock.getAsLong()) > 0) {
                park.accept(wait);
            }
            issue.accept(seq);
        }
    }

    /** Send {@code seq}'s HTTP call starts at {@code now}. */
    public void started(long seq, long now) {
        if (measured(seq)) {
            startLag.recordValue(micros(now - due(seq)));
        }
    }

    /**
     * Send {@code seq} reached one more of its chat's {@code members} sockets at {@code now}.
     *
     * @return whether it counts: a measured send, recorded from when it was due
     */
    public boolean arrived(long seq, long now, int members) {
        if (!measured(seq)) {
            return false;
        }
        long micros = micros(now - due(seq));
        latency.recordValue(micros);
        if (reached.incrementAndGet((int) seq) == members) {
            lastSocket.recordValue(micros);
        }
        return true;
    }

    /** Every delivery's latency recorded so far, from its send's due time, in microseconds. */
    public Histogram latency() {
        return soFar(latency, latencySoFar);
    }

    /** Each message's latency to the last of its chat's sockets so far, in microseconds. */
    Histogram lastSocket() {
        return soFar(lastSocket, lastSocketSoFar);
    }

    /** How late each measured send's HTTP call started so far, in microseconds. */
    public Histogram startLag() {
        return soFar(startLag, startLagSoFar);
    }

    /** A copy of everything the recorder has taken, each call adding what came since the last. */
    private static Histogram soFar(Recorder recorder, Histogram total) {
        synchronized (total) {
            total.add(recorder.getIntervalHistogram());
            return total.copy();
        }
    }

    /** Whole microseconds, at least 1: HdrHistogram keeps no zero worth reading here. */
    private static long micros(long nanos) {
        return Math.max(1, nanos / 1000);
    }
}
