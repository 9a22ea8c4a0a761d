package dev.pigeonhole.adapter.http;

import dev.pigeonhole.adapter.http.dto.ApiOnline;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import io.javalin.http.Context;

import java.time.Duration;
import java.util.Optional;

import static io.javalin.http.HandlerType.GET;

/**
 * Who's online, of the people the caller shares a chat with, and the caller itself. Every
 * signed-in request counts as a sign of life, so there is no "touch" route.
 */
final class PresenceRoutes {

    private final PresenceUseCases useCases;

    PresenceRoutes(PresenceUseCases useCases) {
        this.useCases = useCases;
    }

    void register(Endpoints endpoints) {
        endpoints.forCaller(GET, "/api/presence", this::online);
    }

    private void online(Context ctx, UserId caller) {
        Optional<Duration> within = Query.durationParam(ctx, "within");
        ListOnlineUsers users = useCases.listOnlineUsers();
        ChatRoutes.json(ctx, ApiOnline.from(within.isPresent()
                ? users.online(caller, new ListOnlineUsers.Query(within.get()))
                : users.online(caller)));
    }
}
