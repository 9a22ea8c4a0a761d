package dev.pigeonhole.adapter.http;

import dev.pigeonhole.adapter.http.dto.ApiBlocks;
import dev.pigeonhole.adapter.http.dto.ApiInvitations;
import dev.pigeonhole.adapter.http.dto.ApiSettings;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.port.in.consent.AcceptInvitation;
import dev.pigeonhole.domain.port.in.consent.BlockUsers;
import dev.pigeonhole.domain.port.in.consent.ChooseAddPolicy;
import dev.pigeonhole.domain.port.in.consent.DeclineInvitation;
import io.javalin.http.Context;

import java.util.Set;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;
import static io.javalin.http.HandlerType.PUT;

/**
 * Consent (docs/DESIGN.md §3, "Consent"): the caller's invitations, blocks and add policy. Every route acts
 * on the caller's own consent only, so no path names another user's; who may add whom, and what a
 * block hides, the domain decides.
 */
final class ConsentRoutes {

    private final ConsentUseCases useCases;

    ConsentRoutes(ConsentUseCases useCases) {
        this.useCases = useCases;
    }

    void register(Endpoints endpoints) {
        endpoints.forCaller(GET, "/api/invitations", this::invitations);
        endpoints.forCaller(POST, "/api/invitations/{chat}/accept", this::accept);
        endpoints.forCaller(POST, "/api/invitations/{chat}/decline", this::decline);
        endpoints.forCaller(GET, "/api/blocks", this::blocked);
        endpoints.forCaller(POST, "/api/blocks", this::block);
        endpoints.forCaller(DELETE, "/api/blocks/{user}", this::unblock);
        endpoints.forCaller(GET, "/api/settings", this::settings);
        endpoints.forCaller(PUT, "/api/settings", this::choose);
    }

    private void invitations(Context ctx, UserId caller) {
        ChatRoutes.json(ctx, ApiInvitations.from(useCases.listInvitations().invitations(caller)));
    }

    private void accept(Context ctx, UserId caller) {
        ChatId chat = ChatId.of(ctx.pathParam("chat"));
        useCases.acceptInvitation().accept(new AcceptInvitation.Command(caller, chat));
        ctx.status(204);
    }

    private void decline(Context ctx, UserId caller) {
        ChatId chat = ChatId.of(ctx.pathParam("chat"));
        useCases.declineInvitation().decline(new DeclineInvitation.Command(caller, chat));
        ctx.status(204);
    }

    private void blocked(Context ctx, UserId caller) {
        ChatRoutes.json(ctx, ApiBlocks.from(useCases.blockUsers().blocked(caller)));
    }

    private void block(Context ctx, UserId caller) {
        UserId user = UserId.of(JsonBody.parse(Endpoints.body(ctx), Set.of("user")).requiredString("user"));
        useCases.blockUsers().block(new BlockUsers.Command(caller, user));
        ctx.status(204);
    }

    private void unblock(Context ctx, UserId caller) {
        UserId user = UserId.of(ctx.pathParam("user"));
        useCases.blockUsers().unblock(new BlockUsers.Command(caller, user));
        ctx.status(204);
    }

    private void settings(Context ctx, UserId caller) {
        ChatRoutes.json(ctx, ApiSettings.from(useCases.chooseAddPolicy().policyOf(caller)));
    }

    private void choose(Context ctx, UserId caller) {
        AddPolicy policy = AddPolicy.parse(JsonBody.parse(Endpoints.body(ctx), Set.of("addPolicy"))
                .requiredString("addPolicy"));
        useCases.chooseAddPolicy().choose(new ChooseAddPolicy.Command(caller, policy));
        ctx.status(204);
    }
}
