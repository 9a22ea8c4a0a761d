package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.UserId;
import io.javalin.config.RoutesConfig;

/**
 * {@code GET /api/live}: the WebSocket of live push. The caller is settled before the upgrade,
 * so a bad token is an ordinary 401 problem and never becomes a socket.
 */
final class LiveRoutes {

    static final String PATH = "/api/live";
    private static final String CALLER = "pigeonhole.caller";
    private static final String SOCKET = "pigeonhole.socket";

    private final UseCases useCases;
    private final LiveConnections connections;
    private final HttpMetrics metrics;

    LiveRoutes(UseCases useCases, LiveConnections connections, HttpMetrics metrics) {
        this.useCases = useCases;
        this.connections = connections;
        this.metrics = metrics;
    }

    void register(RoutesConfig routes, Endpoints endpoints) {
        routes.wsBeforeUpgrade(PATH, ctx -> {
            try {
                ctx.attribute(CALLER, endpoints.liveCaller(ctx));
            } catch (Problem problem) {
                Problems.answer(ctx, problem);
                ctx.skipRemainingHandlers();
            }
        });
        routes.ws(PATH, ws -> {
            ws.onConnect(ctx -> {
                UserId caller = ctx.attribute(CALLER);
                // Subscribed here, before the pump reads pending: nothing can fall in between.
                LiveSocket socket = new LiveSocket(ctx, caller, useCases.subscribeToLiveEvents().subscribe(caller),
                        useCases.fetchPending(), metrics);
                ctx.attribute(SOCKET, socket);
                connections.add(socket);
                socket.start();
            });
            ws.onClose(ctx -> {
                LiveSocket socket = ctx.attribute(SOCKET);
                if (socket != null) {
                    socket.ended();
                    connections.remove(socket);
                    socket.close(LiveSocket.CLOSE_GOING_AWAY, "closed");
                }
            });
            ws.onError(ctx -> {
                LiveSocket socket = ctx.attribute(SOCKET);
                if (socket != null) {
                    socket.ended();
                    connections.remove(socket);
                    socket.close(LiveSocket.CLOSE_GOING_AWAY, "error");
                }
            });
        });
    }
}
