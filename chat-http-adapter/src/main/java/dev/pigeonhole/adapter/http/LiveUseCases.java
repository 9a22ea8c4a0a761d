package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.port.in.live.SubscribeToLiveEvents;

/** Live push, for {@link LiveRoutes}: the domain's {@code port.in.live}. */
public record LiveUseCases(SubscribeToLiveEvents subscribeToLiveEvents) {
}
