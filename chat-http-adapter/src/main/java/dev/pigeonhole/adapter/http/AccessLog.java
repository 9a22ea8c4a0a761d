package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.UserId;
import io.javalin.http.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One line per request on the logger {@value #LOGGER} at INFO: method, route, status, duration and
 * caller, with the request's id in the MDC under {@value #MDC_KEY} as every other line of the request
 * has it. The route is the template ({@code /api/chats/{chat}/messages}), never the concrete path:
 * paths hold user and chat ids, and a template is what a dashboard groups by. What no route of the
 * API answered (the page's files, a 404) shows {@code -}.
 *
 * <p>Turned off, the logger costs a level check per request; the id is still made, echoed and put
 * in the MDC, since other lines of the request may want it.
 */
final class AccessLog {

    static final String LOGGER = "pigeonhole.access";
    /** The one name of the request id in the MDC; spans read it there too. */
    static final String MDC_KEY = RequestSpans.REQUEST_ID_MDC_KEY;
    private static final String ROUTE = "pigeonhole.route";
    private static final String USER = "pigeonhole.user";
    private static final String STARTED = "pigeonhole.started";
    /** The id as an attribute too: a WebSocket's context inherits its upgrade's attributes, not its thread. */
    static final String ID = "pigeonhole.request-id";
    private static final String NONE = "-";
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    private AccessLog() {
    }

    /**
     * First thing for every request: its id, on the answer and in this thread's MDC. A request runs
     * on a virtual thread of its own; the id is removed at the end all the same, and a thread that
     * somehow kept one has it replaced here by the next request's.
     */
    static void begin(Context ctx) {
        String id = RequestIds.of(ctx.header(RequestIds.HEADER));
        ctx.header(RequestIds.HEADER, id);
        ctx.attribute(ID, id);
        ctx.attribute(STARTED, System.nanoTime());
        MDC.put(MDC_KEY, id);
    }

    /** The route template that answers, for the line; set by {@link Endpoints} for every route. */
    static void route(Context ctx, String template) {
        ctx.attribute(ROUTE, template);
    }

    /** The signed-in caller, once the token is verified. */
    static void user(Context ctx, UserId caller) {
        ctx.attribute(USER, caller);
    }

    /**
     * Javalin's request logger, called once the answer is written. The time is measured from
     * {@link #begin} rather than taken from Javalin, so that upgrades, which Javalin does not time, are
     * measured alike.
     */
    static void end(Context ctx, Float javalinsMillis) {
        end(ctx, ctx.statusCode());
    }

    /** The line, with this status: a WebSocket upgrade's is known before Jetty answers it, and Javalin logs none. */
    static void end(Context ctx, int status) {
        // An answer completed asynchronously (an event stream's) ends on another thread than it began.
        String id = ctx.attribute(ID);
        if (id != null) {
            MDC.put(MDC_KEY, id);
        }
        try {
            if (LOG.isInfoEnabled()) {
                String method = ctx.method().name();
                String template = ctx.attribute(ROUTE);
                String route = template != null ? template : NONE;
                Long started = ctx.attribute(STARTED);
                double duration = started == null ? 0 : Math.round((System.nanoTime() - started) / 100_000.0) / 10.0;
                UserId caller = ctx.attribute(USER);
                String user = caller != null ? caller.value() : NONE;
                // The fields once more as key-value pairs: a JSON line carries them apart, for a shipper to index.
                LOG.atInfo().setMessage("{} {} {} {} ms {}")
                        .addArgument(method).addArgument(route).addArgument(status)
                        .addArgument(duration).addArgument(user)
                        .addKeyValue("method", method).addKeyValue("route", route)
                        .addKeyValue("status", status).addKeyValue("duration_ms", duration).addKeyValue("user", user)
                        .log();
            }
        } finally {
            MDC.remove(MDC_KEY);
        }
    }

    /**
     * This work with the request's id in its thread's MDC, for the threads a live connection runs on:
     * their lines (a slow client cut off, a subscription that failed) belong to the request that
     * opened the connection.
     */
    static Runnable carrying(String id, Runnable work) {
        return () -> {
            if (id != null) {
                MDC.put(MDC_KEY, id);
            }
            try {
                work.run();
            } finally {
                MDC.remove(MDC_KEY);
            }
        };
    }
}
