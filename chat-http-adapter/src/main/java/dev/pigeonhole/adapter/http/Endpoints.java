package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.presence.TouchPresence;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import io.javalin.router.Endpoint;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.EofException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Registers routes with what every one of them needs, in one place and in this order: count the
 * request in flight, time and trace it, refuse it while the server stops, refuse an oversized
 * body, authenticate, record the sign of life, run the handler, and turn any failure into a
 * problem. A route handler is left with its own job only.
 */
final class Endpoints {

    /** A handler for a signed-in caller. */
    @FunctionalInterface
    interface ForCaller {
        void handle(Context ctx, UserId caller) throws Exception;
    }

    /** A handler anyone may call. */
    @FunctionalInterface
    interface ForAnyone {
        void handle(Context ctx) throws Exception;
    }

    private static final String BEARER = "Bearer ";
    private static final String BODY_READ = "pigeonhole.body-read";
    private static final Logger LOG = LoggerFactory.getLogger(Endpoints.class);
    /** Every request that arrives while the server stops, but for the probes'. */
    static final Problem STOPPING = Problem.retryLater("server-stopping", "Server stopping",
            "this server is stopping and takes no new requests; send the request again, and it goes to another "
                    + "instance", 1);

    private final RoutesConfig routes;
    private final Tokens tokens;
    private final TouchPresence presence;
    private final HttpMetrics metrics;
    private final RequestSpans spans;
    private final int maxRequestBytes;
    private final InFlight inFlight;

    Endpoints(RoutesConfig routes, Tokens tokens, TouchPresence presence, HttpMetrics metrics, RequestSpans spans,
              int maxRequestBytes, InFlight inFlight) {
        this.routes = routes;
        this.tokens = tokens;
        this.presence = presence;
        this.metrics = metrics;
        this.spans = spans;
        this.maxRequestBytes = maxRequestBytes;
        this.inFlight = inFlight;
    }

    void forCaller(HandlerType method, String path, ForCaller handler) {
        forAnyone(method, path, ctx -> {
            UserId caller = authenticate(ctx);
            AccessLog.user(ctx, caller);
            presence.touch(caller);
            handler.handle(ctx, caller);
        });
    }

    void forAnyone(HandlerType method, String path, ForAnyone handler) {
        add(method, path, handler, true);
    }

    /**
     * A route for a load balancer's probes, which goes on answering while the server stops: that
     * it stops is what they need to hear.
     */
    void forProbes(HandlerType method, String path, ForAnyone handler) {
        add(method, path, handler, false);
    }

    private void add(HandlerType method, String path, ForAnyone handler, boolean refusedWhileStopping) {
        addOne(method, path, handler, refusedWhileStopping);
        if (method == HandlerType.GET) {
            // Left to itself, Javalin answers HEAD on a GET route with an empty 200 without running
            // the route: no authentication, and a /health that is down would look up.
            addOne(HandlerType.HEAD, path, handler, refusedWhileStopping);
        }
    }

    private void addOne(HandlerType method, String path, ForAnyone handler, boolean refusedWhileStopping) {
        routes.addEndpoint(new Endpoint(method, path, ctx -> {
            long started = System.nanoTime();
            AccessLog.route(ctx, path);
            inFlight.enter();
            Span span = spans.start(method, path);
            try (Scope current = span.makeCurrent()) {
                if (refusedWhileStopping && inFlight.stopping()) {
                    // The client's next request must open a connection, which the load balancer
                    // sends to an instance that is not stopping.
                    ctx.header("Connection", "close");
                    throw STOPPING;
                }
                refuseOversized(ctx);
                handler.handle(ctx);
            } catch (Throwable failure) {
                span.recordException(failure);
                // Errors too (a linkage error from a mismatched jar is one): the client still gets
                // a problem, never Javalin's bare page. The JVM's own failures go on up afterwards.
                Problems.answer(ctx, Problems.of(failure));
                if (failure instanceof VirtualMachineError fatal) {
                    throw fatal;
                }
            } finally {
                spans.end(span, ctx.statusCode());
                inFlight.leave();
                metrics.request(method.name(), path, ctx.statusCode(), System.nanoTime() - started);
            }
        }));
    }

    /** For a WebSocket upgrade, which is no route: throws the server-stopping problem while the server stops. */
    void refuseIfStopping() {
        if (inFlight.stopping()) {
            throw STOPPING;
        }
    }

    /**
     * Keeps the current request counted in flight after its route returns, as an event stream
     * runs on; the answer, run once (more runs do nothing), lets it go.
     */
    Runnable holdInFlight() {
        inFlight.enter();
        AtomicBoolean held = new AtomicBoolean(true);
        return () -> {
            if (held.getAndSet(false)) {
                inFlight.leave();
            }
        };
    }

    /** The request body, which cannot be larger than the limit once past {@link #refuseOversized}. */
    static byte[] body(Context ctx) {
        byte[] body;
        try {
            body = ctx.bodyAsBytes();
        } catch (HttpResponseException e) {
            // A chunked body carries no length up front; Javalin stops reading at its own limit.
            throw tooLarge(e.getStatus() == 413 ? "the request body is over the limit" : e.getMessage());
        } catch (Exception e) {
            throw unreadable(ctx, e);
        }
        ctx.attribute(BODY_READ, true);
        return body;
    }

    /**
     * A body the client broke (a chunk size that is no number, fewer bytes than it announced) is
     * the client's mistake, not the server's: a 400, and one line for the operator, without the
     * stack trace a bug would deserve.
     */
    private static RuntimeException unreadable(Context ctx, Exception failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            boolean clientsFault = cause instanceof HttpException http && http.getCode() >= 400 && http.getCode() < 500
                    || cause instanceof EofException;
            if (clientsFault) {
                String reason = cause instanceof HttpException http && http.getReason() != null
                        ? http.getReason() : "the body ended early";
                LOG.warn("unreadable request body from {} on {} {}: {}", ctx.req().getRemoteAddr(), ctx.method(),
                        ctx.path(), reason);
                return Problem.of(400, "bad-request", "Bad Request",
                        "the server could not read the request body: " + reason);
            }
        }
        return failure instanceof RuntimeException unchecked ? unchecked : new IllegalStateException(failure);
    }

    private void refuseOversized(Context ctx) {
        long length = ctx.req().getContentLengthLong();
        if (length > maxRequestBytes) {
            throw tooLarge("the request body is " + length + " bytes; the limit is " + maxRequestBytes);
        }
    }

    private static Problem tooLarge(String detail) {
        return Problem.of(413, "request-too-large", "Request too large", detail);
    }

    /**
     * The caller of a live connection (a WebSocket upgrade or an event stream): the header as
     * everywhere, or a {@code token} query parameter, since a browser can set headers on neither.
     * Counts as a sign of life, if the store takes it: a live connection needs no store to open
     * (its feed tells the client to resync instead), so a store outage must not refuse one.
     */
    UserId liveCaller(Context ctx) {
        String token = ctx.queryParam("token");
        UserId caller = ctx.header("Authorization") == null && token != null && !token.isBlank()
                ? tokens.verify(token.strip())
                : authenticate(ctx);
        AccessLog.user(ctx, caller);
        try {
            presence.touch(caller);
        } catch (StoreUnavailableException e) {
            // Debug only: in a storm of reconnects this would be one line per client, and /health tells already.
            LOG.debug("sign of life of {} not recorded: {}", caller, e.getMessage());
        }
        return caller;
    }

    private UserId authenticate(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || header.isBlank()) {
            throw Problem.unauthorized("send 'Authorization: Bearer <token>'; POST /api/session gives a token");
        }
        if (!header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw Problem.unauthorized("the Authorization header must use the Bearer scheme");
        }
        return tokens.verify(header.substring(BEARER.length()).strip());
    }
}
