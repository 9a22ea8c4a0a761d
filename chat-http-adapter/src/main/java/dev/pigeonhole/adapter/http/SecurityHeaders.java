package dev.pigeonhole.adapter.http;

import io.javalin.http.Context;
import java.util.Map;

/**
 * What every answer tells the browser about itself: the page runs its own files and nothing else,
 * inside no other site's frame; no answer is read as another type than it says; and no address of
 * ours, tokens in query strings included, leaks to another site as a referrer.
 *
 * <p>The policy holds because the page has no inline script, style attribute or handler, and loads
 * nothing from another host; its live socket is same-origin, which {@code 'self'} covers. Scripts
 * setting a style property through the DOM are not inline styles, so they need nothing more.
 */
final class SecurityHeaders {

    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; frame-ancestors 'none'";

    /** On every answer: the page, its files, the API, the problems. */
    static final Map<String, String> ALL = Map.of(
            "Content-Security-Policy", CONTENT_SECURITY_POLICY,
            "X-Content-Type-Options", "nosniff",
            "Referrer-Policy", "no-referrer");

    private SecurityHeaders() {
    }

    static void add(Context ctx) {
        ALL.forEach(ctx::header);
    }
}
