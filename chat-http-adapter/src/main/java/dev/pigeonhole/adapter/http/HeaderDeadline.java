package dev.pigeonhole.adapter.http;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection whose request headers take longer than the deadline to arrive. Jetty's
 * idle timeout restarts on every byte, so a client sending one header line every few seconds
 * would hold its connection for ever; Jetty has no deadline for the headers as a whole.
 *
 * <p>A sweep looks at every connection a few times per deadline. A connection counts as
 * mid-header when its parser has left its start state but not reached the body; since Jetty
 * counts a request in only once its headers are complete, the count of requests in tells one
 * request's headers from the next one's.
 */
final class HeaderDeadline extends AbstractLifeCycle {

    private static final Logger LOG = LoggerFactory.getLogger(HeaderDeadline.class);
    private static final int SWEEPS_PER_DEADLINE = 4;

    /** A connection seen mid-header: while its request count stays, it is the same request's headers. */
    private record Seen(long requestsIn, long sinceNanos) {
    }

    private final Server server;
    private final long deadlineNanos;
    private final long sweepMillis;
    /** Touched by the sweep's one thread only; rebuilt each sweep, so it holds only connections mid-header. */
    private Map<HttpConnection, Seen> midHeader = new HashMap<>();
    private ScheduledExecutorService sweeper;

    HeaderDeadline(Server server, Duration deadline) {
        this.server = server;
        this.deadlineNanos = deadline.toNanos();
        this.sweepMillis = Math.max(1, deadline.toMillis() / SWEEPS_PER_DEADLINE);
    }

    @Override
    protected void doStart() {
        sweeper = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("pigeonhole-header-deadline").daemon().factory());
        sweeper.scheduleWithFixedDelay(this::sweep, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void doStop() {
        sweeper.shutdownNow();
        midHeader = new HashMap<>();
    }

    private void sweep() {
        try {
            long now = System.nanoTime();
            Map<HttpConnection, Seen> seenNow = new HashMap<>();
            for (Connector connector : server.getConnectors()) {
                for (EndPoint endPoint : connector.getConnectedEndPoints()) {
                    if (endPoint.getConnection() instanceof HttpConnection http && isMidHeader(http.getParser())) {
                        long requestsIn = http.getMessagesIn();
                        Seen before = midHeader.get(http);
                        Seen seen = before != null && before.requestsIn() == requestsIn ? before : new Seen(requestsIn, now);
                        if (now - seen.sinceNanos() >= deadlineNanos) {
                            LOG.debug("closing {}: its request headers took longer than the deadline",
                                    endPoint.getRemoteSocketAddress());
                            endPoint.close();
                        } else {
                            seenNow.put(http, seen);
                        }
                    }
                }
            }
            midHeader = seenNow;
        } catch (RuntimeException e) {
            // The sweep must go on: one failed round only delays a close until the next.
            LOG.warn("the header deadline sweep failed: {}", e.toString());
        }
    }

    private static boolean isMidHeader(HttpParser parser) {
        return parser.inHeaderState() && !parser.isStart();
    }
}
