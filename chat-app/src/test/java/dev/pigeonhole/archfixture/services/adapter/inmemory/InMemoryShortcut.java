package dev.pigeonhole.archfixture.services.adapter.inmemory;

import dev.pigeonhole.archfixture.services.domain.service.ThingService;

/** Broken on purpose: an adapter calls a service instead of a use case. */
public record InMemoryShortcut(ThingService service) {
}
