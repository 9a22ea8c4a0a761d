package dev.pigeonhole.archfixture.usecases.adapter.http;

import dev.pigeonhole.archfixture.usecases.domain.port.out.Things;

/** Broken on purpose: an HTTP route that writes to a store instead of calling a use case. */
public final class StoreReachingRoute {
    public void handle(Things things) {
        things.store("whatever the request said");
    }
}
