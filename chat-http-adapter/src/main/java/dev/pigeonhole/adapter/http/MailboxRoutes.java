package dev.pigeonhole.adapter.http;

import dev.pigeonhole.adapter.http.dto.ApiMailbox;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.port.in.mailbox.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.ReadDirectMessages;
import io.javalin.http.Context;

import java.util.Set;

import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;

/**
 * Single-recipient mailboxes (Redis in Action 6.5.1): anyone delivers; only the owner reads, and
 * then acknowledges what it has, so an answer lost on the way loses nothing (at-least-once).
 */
final class MailboxRoutes {

    static final int DEFAULT_READ = 100;

    private final MailboxUseCases useCases;
    private final HttpMetrics metrics;

    MailboxRoutes(MailboxUseCases useCases, HttpMetrics metrics) {
        this.useCases = useCases;
        this.metrics = metrics;
    }

    void register(Endpoints endpoints) {
        endpoints.forCaller(POST, "/api/users/{user}/mailbox", this::deliver);
        // The mailbox read and acknowledged is always the caller's own: no path names anyone else's.
        endpoints.forCaller(GET, "/api/mailbox", this::read);
        endpoints.forCaller(POST, "/api/mailbox/read", this::acknowledge);
    }

    /** 201 with no body: the id is the recipient's count of messages, which is not the sender's to know. */
    private void deliver(Context ctx, UserId caller) {
        UserId recipient = UserId.of(ctx.pathParam("user"));
        String text = JsonBody.parse(Endpoints.body(ctx), Set.of("message")).requiredString("message");
        Delivered delivered = useCases.deliverDirectMessage().deliver(new DeliverDirectMessage.Command(caller, recipient, text));
        metrics.mailboxDepth(delivered.depth());
        ctx.status(201);
    }

    private void read(Context ctx, UserId caller) {
        int max = Query.intParam(ctx, "max", DEFAULT_READ);
        ChatRoutes.json(ctx, ApiMailbox.from(useCases.readDirectMessages().read(new ReadDirectMessages.Command(caller, max))));
    }

    private void acknowledge(Context ctx, UserId caller) {
        long upTo = JsonBody.parse(Endpoints.body(ctx), Set.of("upTo")).requiredLong("upTo");
        useCases.acknowledgeDirectMessages().acknowledge(new AcknowledgeDirectMessages.Command(caller, upTo));
        ctx.status(204);
    }
}
