package dev.pigeonhole.adapter.http;

import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;

import dev.pigeonhole.adapter.http.dto.ApiCaller;
import dev.pigeonhole.adapter.http.dto.ApiSession;
import dev.pigeonhole.domain.model.UserId;
import io.javalin.http.Context;
import java.util.Set;

/**
 * Dev login: a token for whatever name is asked. Only for development and demos; with it off,
 * tokens come from an identity provider (checked with its public keys) or from whoever holds the
 * shared signing secret (an admin script). Whoever holds a token may ask whom it signs in: a page
 * handed a provider's token learns its user's name as the server reads it, whatever the claim.
 */
final class SessionRoutes {

    private final Tokens tokens;
    private final boolean devLogin;

    SessionRoutes(Tokens tokens, boolean devLogin) {
        this.tokens = tokens;
        this.devLogin = devLogin;
    }

    void register(Endpoints endpoints) {
        endpoints.forAnyone(POST, "/api/session", this::signIn);
        endpoints.forCaller(GET, "/api/session", (ctx, caller) -> ChatRoutes.json(ctx, new ApiCaller(caller.value())));
    }

    private void signIn(Context ctx) {
        if (!devLogin) {
            throw Problem.of(403, "dev-login-off", "Dev login is off",
                    "this server signs nobody in by name; use a token from its identity provider, or one issued under "
                            + "its signing secret");
        }
        UserId user = UserId.of(JsonBody.parse(Endpoints.body(ctx), Set.of("user")).requiredString("user"));
        ChatRoutes.json(ctx, new ApiSession(user.value(), tokens.issue(user)));
    }
}
