package dev.pigeonhole.adapter.http;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Requests Jetty refuses before any route sees them (a path with bad %-escapes or that climbs
 * above the root, a URI or header block over Jetty's limits, an unreadable Content-Length) get a
 * problem too, instead of Jetty's HTML error page: a client reads every error the same way.
 */
final class JettyProblems extends ErrorHandler {

    private static final int MAX_DETAIL = 120;

    /** Jetty writes an error body for GET, POST and HEAD only; a PUT or DELETE refused as early gets one too. */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        // Jetty's own message may be a cause's toString(), class name and all; only its reason phrase is for clients.
        String reason = cause instanceof HttpException http && http.getReason() != null
                ? http.getReason() : HttpStatus.getMessage(code);
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "/problems/" + type(code));
        problem.put("title", HttpStatus.getMessage(code));
        problem.put("status", code);
        problem.put("detail", "the server could not read the request: " + printable(reason));
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Problems.CONTENT_TYPE);
        response.write(true, ByteBuffer.wrap(Json.write(problem)), callback);
    }

    private static String type(int code) {
        return switch (code) {
            case 400 -> "bad-request";
            case 413 -> "request-too-large";
            case 414 -> "uri-too-long";
            case 431 -> "headers-too-large";
            case 500 -> "internal-error";
            default -> "http-" + code;
        };
    }

    private static String printable(String reason) {
        String shown = reason.length() > MAX_DETAIL ? reason.substring(0, MAX_DETAIL) + "…" : reason;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }
}
