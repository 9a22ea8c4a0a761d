package dev.pigeonhole.adapter.http;

import dev.pigeonhole.adapter.http.dto.LiveEventJson;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.LiveSignal;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client's Server-Sent Events stream ({@code GET /api/events}): the events of the live
 * WebSocket, each as an SSE event named after its {@code type}, with the same JSON as data. A
 * message event carries an id ({@link EventIds}) that a browser sends back as
 * {@code Last-Event-ID} when it reconnects, so the new stream resumes where this one stopped.
 *
 * <p>Writes to a client block while it does not read, so two threads share the work: the pump
 * reads the feed and queues frames, the writer writes them. The frames queued and not yet written
 * are bounded in bytes ({@link UnsentBytes}), as on the WebSocket: a catch-up that reaches the
 * bound is cut short with a {@code resync}, and a client that lets live events reach it is cut
 * off as slow: a last {@code closed} event is queued behind the rest, and a client that has not
 * taken it {@link LiveSocket#SLOW_CLOSE_GRACE} later is dropped outright. A store that does not
 * answer never ends a stream: the feed turns a failed catch-up into a {@code resync}.
 *
 * <p>A comment goes out after a third of the idle timeout without a frame, so the server, proxies
 * and the client keep a quiet stream open, and a client that went away is noticed.
 */
final class EventStream implements LiveConnections.Connection {

    /** How long a browser waits before it reconnects; sent once, first. */
    static final Duration RETRY = Duration.ofSeconds(2);
    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);
    private static final Duration POLL = Duration.ofSeconds(1);

    /** What the writer writes, in order. */
    private sealed interface Frame {
    }

    /** {@code dataBytes} is the data's size in UTF-8, counted once where the data was written. */
    private record Event(String name, String data, int dataBytes, String id) implements Frame {
    }

    private record Comment(String text) implements Frame {
    }

    /** The last event: why the stream ends. */
    private record Closing(String reason) implements Frame {
    }

    /** What a frame costs while it waits: its text, and the few bytes SSE puts around it. */
    private static int bytes(Frame frame) {
        int framing = 24;
        return framing + switch (frame) {
            case Event event -> utf8(event.name()) + event.dataBytes() + (event.id() == null ? 0 : utf8(event.id()));
            case Comment comment -> utf8(comment.text());
            case Closing closing -> utf8(closing.reason());
        };
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private final Context ctx;
    /** The connection under the stream, to keep it open while quiet and to drop it when stuck. */
    private final EndPoint endPoint;
    private final UserId user;
    private final LiveFeed feed;
    private final HttpMetrics metrics;
    private final Duration heartbeat;
    /** Frames for the writer; {@link #unsentBytes} bounds them, so the end always fits. */
    private final BlockingQueue<Frame> unsent = new LinkedBlockingQueue<>();
    private final UnsentBytes unsentBytes;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The writer is done: the client has everything, or is gone. */
    private volatile boolean ended;
    private volatile SseClient client;
    /** When a frame was last queued (nanoTime); only the pump touches it. */
    private long lastQueued = System.nanoTime();

    /**
     * @param idleTimeout how long the stream may carry nothing before the connection is closed,
     *                    as for a socket; a comment goes out after a third of it
     */
    EventStream(Context ctx, UserId user, LiveFeed feed, HttpMetrics metrics, Duration idleTimeout, int maxUnsentBytes) {
        this.ctx = ctx;
        this.endPoint = ServletContextRequest.getServletContextRequest(ctx.req())
                .getConnectionMetaData().getConnection().getEndPoint();
        this.user = user;
        this.feed = feed;
        this.metrics = metrics;
        this.heartbeat = idleTimeout.dividedBy(3);
        this.unsentBytes = new UnsentBytes(maxUnsentBytes);
        // The connector's own idle timeout is for requests that end; this one lives on.
        endPoint.setIdleTimeout(idleTimeout.toMillis());
    }

    /** Runs the stream on the request's own (asynchronous) thread; the response ends when this returns. */
    void run(SseClient sse) {
        client = sse;
        Thread writer = Thread.ofVirtual().name("events-" + user).start(this::write);
        try {
            pump();
        } finally {
            feed.close();
            end("closed");
            try {
                writer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public UserId user() {
        return user;
    }

    @Override
    public void stop() {
        end("stopping");
    }

    @Override
    public boolean isEventStream() {
        return true;
    }

    private void pump() {
        Duration poll = heartbeat.compareTo(POLL) < 0 ? heartbeat : POLL;
        try {
            while (!closed.get() && !client.terminated()) {
                var signal = feed.next(poll);
                if (signal.isPresent() && !handle(signal.get())) {
                    return;
                }
                if (System.nanoTime() - lastQueued >= heartbeat.toNanos()) {
                    queue(new Comment("keep-alive"));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (StoreUnavailableException e) {
            // The feed answers the store's outages with resync; one that still got here is not the client's fault.
            LOG.warn("event stream of {} ends: {}", user, e.getMessage());
            end("store unavailable");
        } catch (RuntimeException e) {
            LOG.error("event stream of {} failed", user, e);
            end("server error");
        }
    }

    /** False once the feed is over. */
    private boolean handle(LiveSignal signal) {
        if (signal instanceof LiveSignal.Closed(var reason)) {
            switch (reason) {
                case SLOW -> cutOffAsSlow();
                case SHUTDOWN -> end("stopping");
                case UNSUBSCRIBED -> end("closed");
            }
            return false;
        }
        LiveFrames.of(signal).ifPresent(shared -> {
            // The data is shared with every connection sent the same event; the id is this stream's.
            // The feed has just counted this chat message as handed out, so the id covers it. A
            // mailbox event carries none: the mailbox is read by pulling, not resumed.
            LiveEventJson event = shared.event();
            String id = event.chatId() != null && event.message() != null ? EventIds.of(feed.received()) : null;
            Event frame = new Event(event.type(), shared.text(), shared.bytes(), id);
            if (signal instanceof LiveSignal.Resync) {
                // A few bytes, and what lets the client recover: it always goes.
                queueAlways(frame);
            } else {
                queue(frame);
            }
        });
        return true;
    }

    private void queue(Frame frame) {
        if (closed.get()) {
            return;
        }
        if (!unsentBytes.take(bytes(frame))) {
            if (!(frame instanceof Event) || !feed.resyncInsteadOfCatchUp()) {
                cutOffAsSlow();
            }
            return;
        }
        unsent.add(frame);
        if (frame instanceof Event) {
            metrics.livePushed();
        }
        lastQueued = System.nanoTime();
    }

    private void queueAlways(Frame frame) {
        if (closed.get()) {
            return;
        }
        unsentBytes.force(bytes(frame));
        unsent.add(frame);
        metrics.livePushed();
        lastQueued = System.nanoTime();
    }

    /** True if this call ended the stream; the closing frame goes out after what is queued. */
    private boolean end(String reason) {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        feed.close();
        unsent.add(new Closing(reason));
        return true;
    }

    private void cutOffAsSlow() {
        if (end("slow")) {
            metrics.liveCutOffAsSlow();
            LOG.info("event stream of {} cut off: it stopped reading", user);
            CompletableFuture.delayedExecutor(LiveSocket.SLOW_CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
                if (!ended) {
                    LOG.info("event stream of {} dropped: it did not take its end within {}", user,
                            LiveSocket.SLOW_CLOSE_GRACE);
                    drop();
                }
            });
        }
    }

    private void write() {
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
                unsentBytes.release(bytes(frame));
            }
        } catch (IOException e) {
            LOG.debug("event stream of {} could not be written: {}", user, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ended = true;
            closed.set(true);
            unsent.clear();
        }
    }

    /** Closes the connection under a writer that is stuck on a client that never reads. */
    private void drop() {
        endPoint.close();
    }
}
