package dev.pigeonhole.adapter.http;

import io.javalin.http.HandlerType;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import org.slf4j.MDC;

/**
 * One span per request, named after its route ({@code POST /api/chats/{chat}/messages}) rather than
 * its path, so that a send is one name however many chats there are. {@link Endpoints} makes it
 * current while the handler runs, so whatever the composition root traces below (the use case, the
 * store calls) nests under it. With {@link OpenTelemetry#noop()} every span is the API's no-op.
 *
 * <p>A request's trace starts here: a {@code traceparent} a client sends is not followed, since
 * anyone on the internet could otherwise choose the trace ids the operator's collector files.
 */
public final class RequestSpans {

    /** Where the SLF4J MDC keeps the id of the request being served on a thread. */
    public static final String REQUEST_ID_MDC_KEY = "request_id";
    /** The request's id on every span made while serving it: what finds a trace from a log line. */
    public static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("pigeonhole.request_id");

    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    private static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
    private static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");

    private final Tracer tracer;

    RequestSpans(OpenTelemetry telemetry) {
        this.tracer = telemetry.getTracer("dev.pigeonhole.http");
    }

    /** Tags {@code span} with the id of the request served on this thread, when it has one. */
    public static void tagRequestId(Span span) {
        String id = MDC.get(REQUEST_ID_MDC_KEY);
        if (id != null) {
            span.setAttribute(REQUEST_ID, id);
        }
    }

    Span start(HandlerType method, String route) {
        return tracer.spanBuilder(method.name() + " " + route)
                .setSpanKind(SpanKind.SERVER)
                .setNoParent()
                .setAttribute(METHOD, method.name())
                .setAttribute(ROUTE, route)
                .startSpan();
    }

    /**
     * Ends {@code span} with the status the client got. Only a 5xx is the server's error; a 4xx is
     * the API answering as it should. The request id is read at the end, by when whatever assigns
     * it has run.
     */
    void end(Span span, int status) {
        span.setAttribute(STATUS, status);
        tagRequestId(span);
        if (status >= 500) {
            span.setStatus(StatusCode.ERROR);
        }
        span.end();
    }
}
