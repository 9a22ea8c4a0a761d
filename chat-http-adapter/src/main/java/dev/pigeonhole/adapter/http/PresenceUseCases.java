package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import dev.pigeonhole.domain.port.in.presence.TouchPresence;

/**
 * Who is online, for {@link PresenceRoutes}, every signed-in request's sign of life and the count
 * {@code /metrics} shows: the domain's {@code port.in.presence}, but for pruning, which is the
 * server's maintenance and no request's.
 */
public record PresenceUseCases(TouchPresence touchPresence, ListOnlineUsers listOnlineUsers) {
}
