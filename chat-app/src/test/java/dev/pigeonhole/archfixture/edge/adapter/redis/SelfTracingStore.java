package dev.pigeonhole.archfixture.edge.adapter.redis;

import io.opentelemetry.api.trace.Span;

/** Broken on purpose: a store that annotates the current span itself. */
public final class SelfTracingStore {
    public void store(String key) {
        Span.current().setAttribute("key", key);
    }
}
