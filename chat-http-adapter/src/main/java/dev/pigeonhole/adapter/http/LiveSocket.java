package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import io.javalin.websocket.WsContext;
import org.eclipse.jetty.websocket.api.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client's live WebSocket: every signal of its feed as a JSON text frame. The feed does the
 * rest (catch-up, following membership, dropping repeats), the same for every transport.
 *
 * <p>Frames are sent asynchronously, so a client that stops reading would make Jetty buffer
 * without end; past a bound in bytes of frames not yet written ({@link UnsentBytes}) the client
 * is cut off as slow, the same answer the feed gives when its own queue fills. A catch-up is
 * different: it comes all at once, and a client that reads may still not take it as fast as it
 * is handed over, so a catch-up that reaches the bound is cut short with a {@code resync} and
 * the client pulls the rest. Its close frame waits behind the unwritten frames, which a client
 * that stopped reading never takes, so a connection cut off is dropped outright once
 * {@link #SLOW_CLOSE_GRACE} has passed without it closing.
 *
 * <p>A store that does not answer never ends a socket: the feed turns a failed catch-up into a
 * {@code resync}. Close code 1011 is left for a bug.
 *
 * <p>A connection with nothing to push for a third of its idle timeout is pinged: the client
 * sends nothing of its own, and a quiet chat must not look like a dead connection.
 */
final class LiveSocket implements LiveConnections.Connection {

    static final int CLOSE_SLOW = 1013;
    static final int CLOSE_GOING_AWAY = 1001;
    /** RFC 6455's "try again later". */
    static final int CLOSE_TRY_AGAIN_LATER = 1013;
    static final int CLOSE_SERVER_ERROR = 1011;
    /** How long a client cut off as slow has to read what is queued for it and the close frame. */
    static final Duration SLOW_CLOSE_GRACE = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(LiveSocket.class);
    private static final Duration POLL = Duration.ofSeconds(1);

    private final WsContext ws;
    private final UserId user;
    private final LiveFeed feed;
    private final HttpMetrics metrics;
    private final UnsentBytes unsent;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The connection is over (Jetty said so); {@code ws.session.isOpen()} turns false as soon as a close is sent. */
    private volatile boolean ended;
    /** When a frame or ping last went out (nanoTime). */
    private volatile long lastSent = System.nanoTime();

    LiveSocket(WsContext ws, UserId user, LiveFeed feed, HttpMetrics metrics, int maxUnsentBytes) {
        this.ws = ws;
        this.user = user;
        this.feed = feed;
        this.metrics = metrics;
        this.unsent = new UnsentBytes(maxUnsentBytes);
    }

    /** Pumps the feed on a virtual thread of its own until either side closes. */
    void start() {
        Thread.ofVirtual().name("live-" + user).start(this::pump);
    }

    @Override
    public UserId user() {
        return user;
    }

    @Override
    public void stop() {
        close(CLOSE_GOING_AWAY, "server stopping");
    }

    @Override
    public boolean isEventStream() {
        return false;
    }

    /** Jetty reported the connection closed or failed: nothing is held for it any more. */
    void ended() {
        ended = true;
    }

    /** True if this call closed it, false if it was closed already. */
    boolean close(int code, String reason) {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        feed.close();
        if (ws.session.isOpen()) {
            ws.closeSession(code, reason);
        }
        return true;
    }

    private void pump() {
        try {
            // The client sends nothing, so without pings a quiet chat would look idle and be timed out.
            Duration idleTimeout = ws.session.getIdleTimeout();
            Duration pingAfter = idleTimeout.isPositive() ? idleTimeout.dividedBy(3) : null;
            Duration poll = pingAfter != null && pingAfter.compareTo(POLL) < 0 ? pingAfter : POLL;
            while (!closed.get() && ws.session.isOpen()) {
                Optional<LiveSignal> signal = feed.next(poll);
                if (signal.isPresent() && !handle(signal.get())) {
                    return;
                }
                if (pingAfter != null && System.nanoTime() - lastSent >= pingAfter.toNanos()) {
                    ping();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (StoreUnavailableException e) {
            // The feed answers the store's outages with resync; one that still got here is not the client's fault.
            LOG.warn("live connection of {} ends: {}", user, e.getMessage());
            close(CLOSE_TRY_AGAIN_LATER, "store unavailable");
        } catch (RuntimeException e) {
            LOG.error("live connection of {} failed", user, e);
            close(CLOSE_SERVER_ERROR, "server error");
        } finally {
            feed.close();
        }
    }

    /** False once the feed is over. */
    private boolean handle(LiveSignal signal) {
        if (signal instanceof LiveSignal.Closed(var reason)) {
            switch (reason) {
                case SLOW -> cutOffAsSlow();
                case SHUTDOWN -> close(CLOSE_GOING_AWAY, "server stopping");
                case UNSUBSCRIBED -> close(CLOSE_GOING_AWAY, "closed");
            }
            return false;
        }
        LiveFrames.of(signal).ifPresent(frame -> send(frame, signal instanceof LiveSignal.Resync));
        return true;
    }

    /**
     * The frame's text is shared with every other socket sent the same event. A resync always
     * goes out: it is a few bytes, and it is what lets a client recover.
     */
    private void send(LiveFrames.Frame frame, boolean always) {
        if (closed.get()) {
            return;
        }
        int bytes = frame.bytes();
        if (always) {
            unsent.force(bytes);
        } else if (!unsent.take(bytes)) {
            if (!feed.resyncInsteadOfCatchUp()) {
                cutOffAsSlow();
            }
            return;
        }
        ws.session.sendText(frame.text(), Callback.from(() -> unsent.release(bytes), failure -> unsent.release(bytes)));
        lastSent = System.nanoTime();
        metrics.livePushed();
    }

    /** Keeps a quiet connection from timing out; a client answers with a pong by itself. */
    private void ping() {
        if (!closed.get()) {
            ws.session.sendPing(ByteBuffer.allocate(0), Callback.NOOP);
            lastSent = System.nanoTime();
        }
    }

    private void cutOffAsSlow() {
        if (close(CLOSE_SLOW, "slow")) {
            metrics.liveCutOffAsSlow();
            LOG.info("live connection of {} cut off: it stopped reading", user);
            // Until the connection ends Jetty holds everything queued for it, and it stays a session.
            CompletableFuture.delayedExecutor(SLOW_CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
                if (!ended) {
                    LOG.info("live connection of {} dropped: it did not close within {}", user, SLOW_CLOSE_GRACE);
                    ws.session.disconnect();
                }
            });
        }
    }
}
