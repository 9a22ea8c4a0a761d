package dev.pigeonhole.archfixture.edge.adapter.redis;

import io.javalin.http.Context;

/** Broken on purpose: a store that reads the HTTP request. */
public final class WebAwareStore {
    public String user(Context ctx) {
        return ctx.header("X-User");
    }
}
