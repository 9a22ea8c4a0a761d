package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client's live connection, whatever carries it: it hands the client each signal of its
 * feed as a frame, keeps a quiet connection open, and ends it for the feed's reasons and the
 * server's. The feed does the rest (catch-up, following membership, dropping repeats). A
 * {@link Transport} knows only how to write a frame, how to say why the connection ends, and how
 * to drop it: {@link LiveSocket} over a WebSocket, {@link EventStream} over Server-Sent Events.
 * This is what {@link LiveConnections} counts, and ends when the server stops.
 *
 * <p>A client that stops reading would make the transport hold its frames without end, so the
 * frames handed over and not yet written are bounded in bytes ({@link UnsentBytes}); a client
 * that lets live frames reach the bound is cut off as slow, the same answer the feed gives when
 * its own queue fills. A catch-up is different: it comes all at once, and a client that reads may
 * still not take it as fast as it is handed over, so a catch-up that reaches the bound is cut
 * short with a {@code resync} and the client pulls the rest. The end a slow client is told waits
 * behind the frames it has not taken, which a client that stopped reading never takes, so a
 * connection cut off is dropped outright once {@link #SLOW_CLOSE_GRACE} has passed without it
 * ending.
 *
 * <p>A store that does not answer never ends a connection: the feed turns a failed catch-up into
 * a {@code resync}. {@link Ending#SERVER_ERROR} is left for a bug.
 *
 * <p>A connection with nothing to send for a third of its idle timeout gets a keep-alive: the
 * client sends nothing of its own, and a quiet chat must not look like a dead connection.
 *
 * @param <F> a frame as its transport writes it
 */
final class LiveLoop<F> implements LiveConnections.Connection {

    /** How long a client cut off as slow has to take what is queued for it and its end. */
    static final Duration SLOW_CLOSE_GRACE = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(LiveLoop.class);
    /** The longest the loop waits for a signal before it looks whether a keep-alive is due. */
    private static final Duration POLL = Duration.ofSeconds(1);

    /** Why a connection ends; each transport tells its client in its own words. */
    enum Ending {
        /** It did not read fast enough: its feed's queue or its unsent bytes filled. */
        SLOW,
        /** The server is stopping. */
        STOPPING,
        /** The feed is over, or the client went away. */
        CLOSED,
        /** The connection failed under its transport. */
        FAILED,
        /** The store failed in a way the feed did not turn into a resync. */
        STORE_UNAVAILABLE,
        /** A bug. */
        SERVER_ERROR
    }

    /** How one transport carries a connection: the loop decides what goes out and when. */
    interface Transport<F> {

        /** True for Server-Sent Events, false for a WebSocket. */
        boolean isEventStream();

        /** False once nothing more can be written to the client. */
        boolean isOpen();

        /** This transport's frame of what the client is told. */
        F frame(LiveFrames.Frame shared);

        /** A frame that only keeps a quiet connection open. */
        F keepAlive();

        /** What the frame holds while handed over and not yet written; nothing for one the transport holds no copy of. */
        int bytes(F frame);

        /**
         * Hands the frame over without waiting for the client; {@link LiveLoop#written} is to be
         * called once it is written, or never will be.
         */
        void write(F frame);

        /** Tells the client why the connection ends, after the frames handed over before, if it still can. */
        void end(Ending why);

        /** Cuts the connection without a word: its client did not take its end. */
        void drop();
    }

    private final UserId user;
    private final LiveFeed feed;
    private final Transport<F> transport;
    private final HttpMetrics metrics;
    private final UnsentBytes unsent;
    private final Duration keepAliveAfter;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The transport found the connection over: nothing is held for it any more. */
    private volatile boolean ended;
    /** When a frame last went out (nanoTime); only the loop touches it. */
    private long lastSent = System.nanoTime();

    /**
     * @param idleTimeout how long the connection may carry nothing before it is closed; a
     *                    keep-alive goes out after a third of it
     */
    LiveLoop(UserId user, LiveFeed feed, Transport<F> transport, HttpMetrics metrics, Duration idleTimeout,
             int maxUnsentBytes) {
        this.user = user;
        this.feed = feed;
        this.transport = transport;
        this.metrics = metrics;
        this.unsent = new UnsentBytes(maxUnsentBytes);
        this.keepAliveAfter = idleTimeout.dividedBy(3);
    }

    /** Hands the feed's signals to the transport, on the calling thread, until either side ends. */
    void run() {
        Duration poll = keepAliveAfter.compareTo(POLL) < 0 ? keepAliveAfter : POLL;
        try {
            while (!closed.get() && transport.isOpen()) {
                Optional<LiveSignal> signal = feed.next(poll);
                if (signal.isPresent() && !handle(signal.get())) {
                    return;
                }
                if (System.nanoTime() - lastSent >= keepAliveAfter.toNanos()) {
                    keepAlive();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (StoreUnavailableException e) {
            // The feed answers the store's outages with resync; one that still got here is not the client's fault.
            LOG.warn("{} ends: {}", name(), e.getMessage());
            end(Ending.STORE_UNAVAILABLE);
        } catch (RuntimeException e) {
            LOG.error("{} failed", name(), e);
            end(Ending.SERVER_ERROR);
        } finally {
            feed.close();
        }
    }

    @Override
    public UserId user() {
        return user;
    }

    @Override
    public void stop() {
        end(Ending.STOPPING);
    }

    @Override
    public boolean isEventStream() {
        return transport.isEventStream();
    }

    /** Ends the connection, telling the client why; true if this call ended it, false if it was over already. */
    boolean end(Ending why) {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        feed.close();
        transport.end(why);
        return true;
    }

    /** The transport found the connection over: it ends, and one cut off as slow needs no dropping. */
    void ended(Ending why) {
        ended = true;
        end(why);
    }

    /** The transport wrote a frame it was handed, or never will: it holds it no longer. */
    void written(F frame) {
        unsent.release(transport.bytes(frame));
    }

    /** False once the feed is over. */
    private boolean handle(LiveSignal signal) {
        if (signal instanceof LiveSignal.Closed(var reason)) {
            switch (reason) {
                case SLOW -> cutOffAsSlow();
                case SHUTDOWN -> end(Ending.STOPPING);
                case UNSUBSCRIBED -> end(Ending.CLOSED);
            }
            return false;
        }
        LiveFrames.of(signal).ifPresent(shared -> send(shared, signal instanceof LiveSignal.Resync));
        return true;
    }

    /** A resync always goes out: it is a few bytes, and it is what lets a client recover. */
    private void send(LiveFrames.Frame shared, boolean resync) {
        if (closed.get()) {
            return;
        }
        F frame = transport.frame(shared);
        int bytes = transport.bytes(frame);
        if (resync) {
            unsent.force(bytes);
        } else if (!unsent.take(bytes)) {
            if (!feed.resyncInsteadOfCatchUp()) {
                cutOffAsSlow();
            }
            return;
        }
        handOver(frame);
        metrics.livePushed();
    }

    private void keepAlive() {
        if (closed.get()) {
            return;
        }
        F frame = transport.keepAlive();
        if (!unsent.take(transport.bytes(frame))) {
            cutOffAsSlow();
            return;
        }
        handOver(frame);
    }

    private void handOver(F frame) {
        transport.write(frame);
        lastSent = System.nanoTime();
    }

    private void cutOffAsSlow() {
        if (end(Ending.SLOW)) {
            metrics.liveCutOffAsSlow();
            LOG.info("{} cut off: it stopped reading", name());
            // Until the connection ends its transport holds everything queued for it.
            CompletableFuture.delayedExecutor(SLOW_CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
                if (!ended) {
                    LOG.info("{} dropped: it did not take its end within {}", name(), SLOW_CLOSE_GRACE);
                    transport.drop();
                }
            });
        }
    }

    /** Whose connection, in words, for the log. */
    private String name() {
        return (transport.isEventStream() ? "event stream of " : "live connection of ") + user;
    }
}
