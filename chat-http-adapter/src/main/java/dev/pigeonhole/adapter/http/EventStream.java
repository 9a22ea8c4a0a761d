package dev.pigeonhole.adapter.http;

import dev.pigeonhole.adapter.http.dto.ApiLiveEvent;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import io.javalin.http.Context;
import io.javalin.http.sse.SseClient;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One client's Server-Sent Events stream ({@code GET /api/events}): its {@link LiveLoop}'s
 * frames, each as an SSE event named after its {@code type}, with the same JSON as data. A
 * message event carries an id ({@link EventIds}) that a browser sends back as
 * {@code Last-Event-ID} when it reconnects, so the new stream resumes where this one stopped. Its
 * keep-alive is a comment, and its end a last {@code closed} event that says why.
 *
 * <p>Writes to a client block while it does not read, so two threads share the work: the loop
 * queues frames, the writer writes them. Every frame queued and not yet written counts against
 * the connection's bound, comments included.
 */
final class EventStream implements LiveLoop.Transport<EventStream.Frame> {

    /** How long a browser waits before it reconnects; sent once, first. */
    static final Duration RETRY = Duration.ofSeconds(2);
    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);

    /** What the writer writes, in order. */
    sealed interface Frame permits Event, Comment, Closing {
    }

    /** {@code dataBytes} is the data's size in UTF-8, counted once where the data was written. */
    private record Event(String name, String data, int dataBytes, String id) implements Frame {
    }

    private record Comment(String text) implements Frame {
    }

    /** The last event: why the stream ends. */
    private record Closing(String reason) implements Frame {
    }

    private static final Comment KEEP_ALIVE = new Comment("keep-alive");

    private final Context ctx;
    /** The connection under the stream, to keep it open while quiet and to drop it when stuck. */
    private final EndPoint endPoint;
    private final UserId user;
    /** For the ids of message events: what the feed has handed out. */
    private final LiveFeed feed;
    private final LiveLoop<Frame> loop;
    /** Frames for the writer; the loop bounds them, so the end always fits. */
    private final BlockingQueue<Frame> unsent = new LinkedBlockingQueue<>();
    private volatile SseClient client;

    /**
     * @param idleTimeout how long the stream may carry nothing before the connection is closed,
     *                    as for a socket
     */
    EventStream(Context ctx, UserId user, LiveFeed feed, HttpMetrics metrics, Duration idleTimeout, int maxUnsentBytes) {
        this.ctx = ctx;
        this.endPoint = ServletContextRequest.getServletContextRequest(ctx.req())
                .getConnectionMetaData().getConnection().getEndPoint();
        this.user = user;
        this.feed = feed;
        this.loop = new LiveLoop<>(user, feed, this, metrics, idleTimeout, maxUnsentBytes);
        // The connector's own idle timeout is for requests that end; this one lives on.
        endPoint.setIdleTimeout(idleTimeout.toMillis());
    }

    /** Runs the stream on the request's own (asynchronous) thread; the response ends when this returns. */
    void run(SseClient sse) {
        client = sse;
        String requestId = ctx.attribute(AccessLog.ID);
        Thread writer = Thread.ofVirtual().name("events-" + user).start(AccessLog.carrying(requestId, this::writeQueued));
        try {
            AccessLog.carrying(requestId, loop::run).run();
        } finally {
            loop.end(LiveLoop.Ending.CLOSED);
            try {
                writer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** What {@link LiveConnections} counts. */
    LiveLoop<?> connection() {
        return loop;
    }

    @Override
    public boolean isEventStream() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return !client.terminated();
    }

    /**
     * The data is shared with every connection sent the same event; the id is this stream's. The
     * feed has just counted a chat message as handed out, so the id covers it. A mailbox event
     * carries none: the mailbox is read by pulling, not resumed.
     */
    @Override
    public Frame frame(LiveFrames.Frame shared) {
        ApiLiveEvent event = shared.event();
        String id = event.chatId() != null && event.message() != null ? EventIds.of(feed.received()) : null;
        return new Event(event.type(), shared.text(), shared.bytes(), id);
    }

    @Override
    public Frame keepAlive() {
        return KEEP_ALIVE;
    }

    /** The frame's text, and the few bytes SSE puts around it. */
    @Override
    public int bytes(Frame frame) {
        int framing = 24;
        return framing + switch (frame) {
            case Event event -> utf8(event.name()) + event.dataBytes() + (event.id() == null ? 0 : utf8(event.id()));
            case Comment comment -> utf8(comment.text());
            case Closing closing -> utf8(closing.reason());
        };
    }

    @Override
    public void write(Frame frame) {
        unsent.add(frame);
    }

    /** The closing event goes out after what is queued. */
    @Override
    public void end(LiveLoop.Ending why) {
        unsent.add(new Closing(switch (why) {
            case SLOW -> "slow";
            case STOPPING -> "stopping";
            case CLOSED -> "closed";
            case FAILED -> "error";
            case STORE_UNAVAILABLE -> "store unavailable";
            case SERVER_ERROR -> "server error";
        }));
    }

    /** Closes the connection under a writer that is stuck on a client that never reads. */
    @Override
    public void drop() {
        endPoint.close();
    }

    private void writeQueued() {
        LiveLoop.Ending over = LiveLoop.Ending.CLOSED;
        try {
            // Javalin's client has no call for the reconnection delay, so it is written as SSE spells it.
            ctx.res().getOutputStream().print("retry: " + RETRY.toMillis() + "\n\n");
            ctx.res().flushBuffer();
            while (!client.terminated()) {
                Frame frame = unsent.take();
                switch (frame) {
                    case Event event -> client.sendEvent(event.name(), event.data(), event.id());
                    case Comment comment -> client.sendComment(comment.text());
                    case Closing closing -> {
                        client.sendEvent("closed", "{\"type\":\"closed\",\"reason\":\"" + closing.reason() + "\"}", null);
                        return;
                    }
                }
                loop.written(frame);
            }
        } catch (IOException e) {
            LOG.debug("event stream of {} could not be written: {}", user, e.toString());
            over = LiveLoop.Ending.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            // Nothing more is written: the loop queues nothing after this, and what is queued is let go.
            loop.ended(over);
            unsent.clear();
        }
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
