package dev.pigeonhole.adapter.http;

import dev.pigeonhole.adapter.http.dto.ApiChatSummary;
import dev.pigeonhole.adapter.http.dto.ApiCreatedChat;
import dev.pigeonhole.adapter.http.dto.ApiMessage;
import dev.pigeonhole.adapter.http.dto.ApiPage;
import dev.pigeonhole.adapter.http.dto.ApiPending;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.CreatedChat;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.port.in.chat.LeaveChat;
import dev.pigeonhole.domain.port.in.chat.ReadMessages;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import io.javalin.http.Context;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;

/**
 * Group chat (Redis in Action 6.5.2): create, list, send, read, pending, acknowledge, invite or
 * join, leave.
 */
final class ChatRoutes {

    static final int DEFAULT_PAGE_SIZE = 100;

    private final ChatUseCases useCases;
    private final HttpMetrics metrics;

    ChatRoutes(ChatUseCases useCases, HttpMetrics metrics) {
        this.useCases = useCases;
        this.metrics = metrics;
    }

    void register(Endpoints endpoints) {
        endpoints.forCaller(POST, "/api/chats", this::create);
        endpoints.forCaller(GET, "/api/chats", this::list);
        endpoints.forCaller(POST, "/api/chats/{chat}/messages", this::send);
        endpoints.forCaller(GET, "/api/chats/{chat}/messages", this::read);
        endpoints.forCaller(GET, "/api/pending", this::pending);
        endpoints.forCaller(POST, "/api/chats/{chat}/read", this::acknowledge);
        endpoints.forCaller(POST, "/api/read", this::acknowledgeMany);
        endpoints.forCaller(POST, "/api/chats/{chat}/members", this::join);
        endpoints.forCaller(DELETE, "/api/chats/{chat}/members/{user}", this::leave);
    }

    private void create(Context ctx, UserId caller) {
        JsonBody body = JsonBody.parse(Endpoints.body(ctx), Set.of("members", "message", "chatId", "open"));
        Set<UserId> others = new LinkedHashSet<>();
        body.stringList("members").forEach(member -> others.add(UserId.of(member)));
        Optional<ChatId> chat = body.optionalString("chatId").map(ChatId::of);
        Access access = body.optionalBoolean("open", false) ? Access.OPEN : Access.PRIVATE;
        CreatedChat created = useCases.createChat().create(
                new CreateChat.Command(caller, others, chat, access, body.requiredString("message")));
        metrics.messageSent();
        ctx.status(201);
        json(ctx, ApiCreatedChat.from(created));
    }

    private void list(Context ctx, UserId caller) {
        json(ctx, useCases.listChats().chatsOf(caller).stream().map(ApiChatSummary::from).toList());
    }

    private void send(Context ctx, UserId caller) {
        ChatId chat = ChatId.of(ctx.pathParam("chat"));
        JsonBody body = JsonBody.parse(Endpoints.body(ctx), Set.of("message", "idempotencyKey"));
        Optional<IdempotencyKey> key = body.optionalString("idempotencyKey").map(IdempotencyKey::of);
        Message sent = useCases.sendMessage().send(
                new SendMessage.Command(chat, caller, body.requiredString("message"), key));
        metrics.messageSent();
        ctx.status(201);
        json(ctx, ApiMessage.from(sent));
    }

    private void read(Context ctx, UserId caller) {
        ChatId chat = ChatId.of(ctx.pathParam("chat"));
        long after = Query.longParam(ctx, "after", 0);
        int limit = Query.intParam(ctx, "limit", DEFAULT_PAGE_SIZE);
        json(ctx, ApiPage.from(useCases.readMessages().read(new ReadMessages.Query(caller, chat, after, limit))));
    }

    private void pending(Context ctx, UserId caller) {
        int perChat = Query.intParam(ctx, "limit", FetchPending.Query.DEFAULT_PER_CHAT_LIMIT);
        ApiPending pending = ApiPending.from(useCases.fetchPending().pending(new FetchPending.Query(caller, perChat)));
        metrics.pendingFetched();
        json(ctx, pending);
    }

    private void acknowledge(Context ctx, UserId caller) {
        ChatId chat = ChatId.of(ctx.pathParam("chat"));
        long upTo = JsonBody.parse(Endpoints.body(ctx), Set.of("upTo")).requiredLong("upTo");
        useCases.acknowledgeMessages().acknowledge(new AcknowledgeMessages.Command(caller, chat, upTo));
        metrics.acknowledged();
        ctx.status(204);
    }

    /**
     * {@code {"chats": {"<chat>": <upTo>, …}}}: every chat's acknowledge in one request, all or
     * nothing. Each chat id is checked as a path's is; the use case bounds how many there are.
     */
    private void acknowledgeMany(Context ctx, UserId caller) {
        Map<ChatId, Long> upTo = new HashMap<>();
        JsonBody.parse(Endpoints.body(ctx), Set.of("chats")).wholeNumbersByName("chats")
                .forEach((chat, up) -> upTo.put(ChatId.of(chat), up));
        useCases.acknowledgeMessages().acknowledge(new AcknowledgeMessages.Batch(caller, upTo));
        metrics.acknowledged();
        ctx.status(204);
    }

    /** A member invites {@code {"user": …}}; with no body (or naming yourself) you join an open chat. */
    private void join(Context ctx, UserId caller) {
        ChatId chat = ChatId.of(ctx.pathParam("chat"));
        JsonBody body = JsonBody.parseOrEmpty(Endpoints.body(ctx), Set.of("user"));
        UserId user = body.optionalString("user").map(UserId::of).orElse(caller);
        useCases.joinChat().join(new JoinChat.Command(chat, caller, user));
        ctx.status(204);
    }

    private void leave(Context ctx, UserId caller) {
        ChatId chat = ChatId.of(ctx.pathParam("chat"));
        UserId leaver = UserId.of(ctx.pathParam("user"));
        if (!leaver.equals(caller)) {
            throw Problem.forbidden("you may leave a chat only for yourself, not for " + leaver);
        }
        useCases.leaveChat().leave(new LeaveChat.Command(chat, caller));
        ctx.status(204);
    }

    static void json(Context ctx, Object value) {
        ctx.contentType("application/json");
        ctx.result(Json.write(value));
    }
}
