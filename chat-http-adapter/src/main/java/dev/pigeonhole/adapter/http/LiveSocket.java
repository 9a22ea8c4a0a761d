package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import io.javalin.websocket.WsContext;
import org.eclipse.jetty.websocket.api.Callback;

import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * One client's live WebSocket: its {@link LiveLoop}'s frames as JSON text frames, its keep-alive
 * as a ping, which the client answers by itself, and its end as a close code.
 *
 * <p>Frames are sent asynchronously: each counts against the connection's bound until Jetty has
 * written it. A ping is Jetty's own few bytes and costs nothing against it. A close frame queues
 * behind what the client has not read, so a socket cut off as slow that has not closed in time is
 * disconnected without one.
 */
final class LiveSocket implements LiveLoop.Transport<LiveSocket.Frame> {

    /** RFC 6455's "going away". */
    private static final int CLOSE_GOING_AWAY = 1001;
    /** RFC 6455's "internal error". */
    private static final int CLOSE_SERVER_ERROR = 1011;
    /** RFC 6455's "try again later". */
    private static final int CLOSE_TRY_AGAIN_LATER = 1013;

    /** What goes out on the socket. */
    sealed interface Frame permits Text, Ping {
    }

    private record Text(LiveFrames.Frame shared) implements Frame {
    }

    private record Ping() implements Frame {
    }

    private static final Ping PING = new Ping();

    private final WsContext ws;
    private final UserId user;
    private final LiveLoop<Frame> loop;

    LiveSocket(WsContext ws, UserId user, LiveFeed feed, HttpMetrics metrics, Duration idleTimeout, int maxUnsentBytes) {
        this.ws = ws;
        this.user = user;
        this.loop = new LiveLoop<>(user, feed, this, metrics, idleTimeout, maxUnsentBytes);
    }

    /** Closes a socket with the code and reason that say why; also for one refused before it had a loop. */
    static void close(WsContext ws, LiveLoop.Ending why) {
        if (!ws.session.isOpen()) {
            return;
        }
        switch (why) {
            case SLOW -> ws.closeSession(CLOSE_TRY_AGAIN_LATER, "slow");
            case STOPPING -> ws.closeSession(CLOSE_GOING_AWAY, "server stopping");
            case CLOSED -> ws.closeSession(CLOSE_GOING_AWAY, "closed");
            case FAILED -> ws.closeSession(CLOSE_GOING_AWAY, "error");
            case STORE_UNAVAILABLE -> ws.closeSession(CLOSE_TRY_AGAIN_LATER, "store unavailable");
            case SERVER_ERROR -> ws.closeSession(CLOSE_SERVER_ERROR, "server error");
        }
    }

    /** Runs the loop on a virtual thread of its own until either side closes. */
    void start() {
        Thread.ofVirtual().name("live-" + user).start(AccessLog.carrying(ws.attribute(AccessLog.ID), loop::run));
    }

    /** What {@link LiveConnections} counts, and what Jetty tells when the socket is over. */
    LiveLoop<?> connection() {
        return loop;
    }

    @Override
    public boolean isEventStream() {
        return false;
    }

    /** {@code ws.session.isOpen()} turns false as soon as a close is sent. */
    @Override
    public boolean isOpen() {
        return ws.session.isOpen();
    }

    /** The text is shared with every other socket sent the same event. */
    @Override
    public Frame frame(LiveFrames.Frame shared) {
        return new Text(shared);
    }

    @Override
    public Frame keepAlive() {
        return PING;
    }

    @Override
    public int bytes(Frame frame) {
        return switch (frame) {
            case Text text -> text.shared().bytes();
            case Ping ping -> 0;
        };
    }

    @Override
    public void write(Frame frame) {
        switch (frame) {
            case Text text -> ws.session.sendText(text.shared().text(),
                    Callback.from(() -> loop.written(frame), failure -> loop.written(frame)));
            case Ping ping -> ws.session.sendPing(ByteBuffer.allocate(0), Callback.NOOP);
        }
    }

    @Override
    public void end(LiveLoop.Ending why) {
        close(ws, why);
    }

    /** Until the connection ends Jetty holds everything queued for it, and it stays a session. */
    @Override
    public void drop() {
        ws.session.disconnect();
    }
}
