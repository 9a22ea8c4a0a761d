package dev.pigeonhole.adapter.http;

import static io.javalin.http.HandlerType.POST;

import dev.pigeonhole.adapter.http.dto.TakenJson;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.TakeDirectMessages;
import io.javalin.http.Context;
import java.util.Set;

/** Single-recipient mailboxes (Redis in Action 6.5.1): anyone delivers, only the owner takes. */
final class MailboxRoutes {

    static final int DEFAULT_TAKE = 100;

    private final UseCases useCases;
    private final HttpMetrics metrics;

    MailboxRoutes(UseCases useCases, HttpMetrics metrics) {
        this.useCases = useCases;
        this.metrics = metrics;
    }

    void register(Endpoints endpoints) {
        endpoints.forCaller(POST, "/api/users/{user}/mailbox", this::deliver);
        // The mailbox taken from is always the caller's own: there is no path to anyone else's.
        endpoints.forCaller(POST, "/api/mailbox/take", this::take);
    }

    private void deliver(Context ctx, UserId caller) {
        UserId recipient = UserId.of(ctx.pathParam("user"));
        String text = JsonBody.parse(Endpoints.body(ctx), Set.of("message")).requiredString("message");
        int depth = useCases.deliverDirectMessage().deliver(new DeliverDirectMessage.Command(caller, recipient, text));
        metrics.mailboxDepth(depth);
        ctx.status(201);
    }

    private void take(Context ctx, UserId caller) {
        int max = Query.intParam(ctx, "max", DEFAULT_TAKE);
        ChatRoutes.json(ctx, TakenJson.from(useCases.takeDirectMessages().take(new TakeDirectMessages.Command(caller, max))));
    }
}
