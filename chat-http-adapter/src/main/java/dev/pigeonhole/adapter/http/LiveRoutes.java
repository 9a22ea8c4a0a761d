package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.sse.SseHandler;
import io.javalin.websocket.WsContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

import static io.javalin.http.HandlerType.GET;

/**
 * The two ways to be pushed live events, with one protocol between them: {@code GET /api/live}
 * (WebSocket) and {@code GET /api/events} (Server-Sent Events). Either settles the caller before
 * anything is held for it, so a bad token is an ordinary 401 problem and never becomes a stream,
 * and a user who already holds every live connection it may gets a 429 problem before the upgrade.
 * Two upgrades racing for the last place both pass that check; the loser is closed as soon as it
 * opens, with 1008 and the same words, since only one of them can be counted.
 */
final class LiveRoutes {

    static final String SOCKET_PATH = "/api/live";
    static final String EVENTS_PATH = "/api/events";
    static final String EVENT_STREAM = "text/event-stream";
    private static final String CALLER = "pigeonhole.caller";
    private static final String SOCKET = "pigeonhole.socket";
    private static final int CLOSE_POLICY_VIOLATION = 1008;
    private static final int SWITCHING_PROTOCOLS = 101;
    private static final Logger LOG = LoggerFactory.getLogger(LiveRoutes.class);

    private final LiveUseCases useCases;
    private final LiveConnections connections;
    private final HttpMetrics metrics;
    /** How long a live connection, of either transport, may carry nothing before it is closed. */
    private final Duration idleTimeout;
    private final int maxUnsentBytes;

    LiveRoutes(LiveUseCases useCases, LiveConnections connections, HttpMetrics metrics, HttpSettings settings) {
        this.useCases = useCases;
        this.connections = connections;
        this.metrics = metrics;
        this.idleTimeout = settings.liveIdleTimeout();
        this.maxUnsentBytes = settings.maxUnsentBytes();
    }

    void register(RoutesConfig routes, Endpoints endpoints) {
        registerSocket(routes, endpoints);
        endpoints.forAnyone(GET, EVENTS_PATH, ctx -> events(ctx, endpoints));
    }

    private void events(Context ctx, Endpoints endpoints) {
        UserId caller = endpoints.liveCaller(ctx);
        LiveFeed.Received received = EventIds.parse(ctx.header("Last-Event-ID"));
        if (ctx.method() == HandlerType.HEAD) {
            ctx.contentType(EVENT_STREAM);
            return;
        }
        String accept = ctx.header("Accept");
        if (accept == null || !accept.contains(EVENT_STREAM)) {
            // Javalin's SSE handler would otherwise answer an empty 200 that looks like a stream that ended.
            throw Problem.of(406, "not-acceptable", "Not acceptable",
                    EVENTS_PATH + " is a Server-Sent Events stream: send 'Accept: " + EVENT_STREAM + "'");
        }
        connections.refuseIfFull(caller);
        // Subscribed here, before the stream reads pending: nothing can fall in between.
        LiveFeed feed = useCases.subscribeToLiveEvents().subscribe(caller, received);
        EventStream stream = null;
        // The stream runs on after this route returns; a stopping server waits for its end too.
        Runnable ended = endpoints.holdInFlight();
        try {
            stream = new EventStream(ctx, caller, feed, metrics, idleTimeout, maxUnsentBytes);
            connections.add(stream.connection());
            EventStream started = stream;
            new SseHandler(client -> {
                try {
                    started.run(client);
                } finally {
                    connections.remove(started.connection());
                    ended.run();
                }
            }).handle(ctx);
        } catch (RuntimeException e) {
            // Nothing runs the stream, so nothing else would let go of what it holds (or counted it, if full).
            if (stream != null) {
                connections.remove(stream.connection());
            }
            feed.close();
            ended.run();
            throw e;
        }
    }

    private void registerSocket(RoutesConfig routes, Endpoints endpoints) {
        routes.wsBeforeUpgrade(SOCKET_PATH, ctx -> {
            // An upgrade passes by none of the hooks of other requests (Javalin's before handlers, its
            // request logger): its id and its access line are settled here. The 101 itself is Jetty's,
            // and carries no header set here; a refusal does.
            AccessLog.begin(ctx);
            AccessLog.route(ctx, SOCKET_PATH);
            try {
                endpoints.refuseIfStopping();
                UserId caller = endpoints.liveCaller(ctx);
                connections.refuseIfFull(caller);
                ctx.attribute(CALLER, caller);
                AccessLog.end(ctx, SWITCHING_PROTOCOLS);
            } catch (Problem problem) {
                Problems.answerBeforeUpgrade(ctx, problem);
                ctx.skipRemainingHandlers();
                AccessLog.end(ctx, ctx.statusCode());
            }
        });
        routes.ws(SOCKET_PATH, ws -> {
            ws.onConnect(ctx -> AccessLog.carrying(ctx.attribute(AccessLog.ID), () -> connect(ctx)).run());
            ws.onClose(ctx -> ended(ctx, LiveLoop.Ending.CLOSED));
            ws.onError(ctx -> ended(ctx, LiveLoop.Ending.FAILED));
        });
    }

    /** The socket is open: subscribe its caller and start its loop, or close it saying why not. */
    private void connect(WsContext ctx) {
        UserId caller = ctx.attribute(CALLER);
        LiveFeed feed;
        try {
            // Subscribed here, before the pump reads pending: nothing can fall in between.
            feed = useCases.subscribeToLiveEvents().subscribe(caller);
        } catch (StoreUnavailableException e) {
            // Only a topic no one on this server follows yet needs the store here.
            LOG.warn("live connection of {} not subscribed: {}", caller, e.getMessage());
            LiveSocket.close(ctx, LiveLoop.Ending.STORE_UNAVAILABLE);
            return;
        }
        LiveSocket socket = new LiveSocket(ctx, caller, feed, metrics, idleTimeout, maxUnsentBytes);
        try {
            connections.add(socket.connection());
        } catch (Problem full) {
            feed.close();
            ctx.closeSession(CLOSE_POLICY_VIOLATION, full.title());
            return;
        }
        ctx.attribute(SOCKET, socket.connection());
        socket.start();
    }

    /** Jetty is done with the socket: whatever it holds, and its place, are let go. */
    private void ended(WsContext ctx, LiveLoop.Ending why) {
        LiveLoop<?> connection = ctx.attribute(SOCKET);
        if (connection != null) {
            connection.ended(why);
            connections.remove(connection);
        }
    }
}
