package dev.pigeonhole.adapter.http;

import dev.pigeonhole.adapter.http.dto.ApiProblem;
import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.DomainException;
import dev.pigeonhole.domain.model.InvalidIdException;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.NoInvitationException;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.NotDurableException;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.TooManyChatsException;
import dev.pigeonhole.domain.model.UnknownChatException;
import io.javalin.http.Context;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every failure becomes a problem+json answer here, and only here. The domain's rejections map
 * one to one (the switch is exhaustive over its sealed family); anything else is a bug, logged
 * with its stack trace on the server and answered with a bare 500 that reveals nothing.
 */
final class Problems {

    static final String CONTENT_TYPE = "application/problem+json";
    private static final Logger LOG = LoggerFactory.getLogger(Problems.class);
    private static final int RETRY_AFTER_SECONDS = 2;
    /** A replica that lags catches up in moments or is being replaced; either way, ask again soon. */
    private static final int NOT_DURABLE_RETRY_AFTER_SECONDS = 1;

    private Problems() {
    }

    static Problem of(Throwable failure) {
        if (failure instanceof Problem problem) {
            return problem;
        }
        if (failure instanceof DomainException rejection) {
            return of(rejection);
        }
        LOG.error("unexpected failure while serving a request", failure);
        return Problem.of(500, "internal-error", "Internal error",
                "the server failed to answer; the failure is logged on the server");
    }

    private static Problem of(DomainException rejection) {
        return switch (rejection) {
            case InvalidIdException e -> Problem.of(400, "invalid-id", "Invalid id", e.getMessage());
            case InvalidInputException e -> Problem.of(400, "invalid-input", "Invalid input", e.getMessage());
            case UnknownChatException e -> Problem.of(404, "unknown-chat", "Unknown chat", e.getMessage());
            case NotAMemberException e -> Problem.of(403, "not-a-member", "Not a member", e.getMessage());
            case ChatAlreadyExistsException e -> Problem.of(409, "chat-exists", "Chat already exists", e.getMessage());
            case ChatFullException e -> Problem.of(409, "chat-full", "Chat full", e.getMessage());
            case MailboxFullException e -> Problem.of(409, "mailbox-full", "Mailbox full", e.getMessage());
            case NoInvitationException e -> Problem.of(404, "no-invitation", "No invitation", e.getMessage());
            case TooManyChatsException e -> Problem.of(409, "too-many-chats", "Too many chats", e.getMessage());
            case RateLimitedException e -> Problem.tooManyRequests("rate-limited", "Too many requests", e.getMessage(),
                    e.retryAfter());
            case NotDurableException e -> {
                LOG.warn("write not confirmed by replicas: {}", e.getMessage());
                String detail = e.getMessage() + (e.messageId().isPresent()
                        ? "; send it again with the same Idempotency-Key to learn when it is kept"
                        + " (without one, sending again stores it a second time)"
                        : "");
                yield e.messageId().isPresent()
                        ? Problem.retryLaterAbout(e.messageId().getAsLong(), "not-durable", "Not durable", detail,
                                NOT_DURABLE_RETRY_AFTER_SECONDS)
                        : Problem.retryLater("not-durable", "Not durable", detail, NOT_DURABLE_RETRY_AFTER_SECONDS);
            }
            case StoreUnavailableException e -> {
                // The cause names hosts and ports: for the operator's log, not for clients.
                LOG.warn("store unavailable: {}", e.getMessage());
                yield Problem.retryLater("store-unavailable", "Store unavailable",
                        "the message store did not answer in time; nothing is lost, try again shortly",
                        RETRY_AFTER_SECONDS);
            }
        };
    }

    static void answer(Context ctx, Problem problem) {
        ctx.result(head(ctx, problem));
    }

    /**
     * The same answer, written out at once: before a WebSocket upgrade Javalin sends no result,
     * and the refusal must still carry its problem.
     */
    static void answerBeforeUpgrade(Context ctx, Problem problem) {
        byte[] body = head(ctx, problem);
        try {
            ctx.res().setContentLength(body.length);
            ctx.res().getOutputStream().write(body);
            ctx.res().flushBuffer();
        } catch (IOException e) {
            LOG.debug("a refused upgrade could not be answered: {}", e.toString());
        }
    }

    /** Sets the status and headers of a problem; answers its body. */
    private static byte[] head(Context ctx, Problem problem) {
        ctx.status(problem.status());
        if (problem.status() == 401) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"pigeonhole\"");
        }
        if (problem.retryAfterSeconds() != null) {
            ctx.header("Retry-After", Integer.toString(problem.retryAfterSeconds()));
        }
        if (carriesBody(ctx)) {
            // A refusal often comes before the body is read (no token, no such route, too large).
            // Jetty then closes the connection after answering if the rest of the body has not
            // arrived, and a keep-alive client that sent its next request meanwhile finds it
            // gone. Saying so before the answer goes out lets the client open a new one instead.
            ctx.header("Connection", "close");
        }
        ctx.contentType(CONTENT_TYPE);
        return Json.write(ApiProblem.from(problem.type(), problem.title(), problem.status(), problem.detail(),
                ctx.path(), problem.messageId()));
    }

    private static boolean carriesBody(Context ctx) {
        return ctx.req().getContentLengthLong() > 0 || ctx.header("Transfer-Encoding") != null;
    }
}
