package dev.pigeonhole.adapter.http;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live connections open on this server: for the sessions gauge, and to close them all when
 * the server stops. Which chats each follows is the domain's business, through membership events.
 */
final class LiveConnections {

    private final Set<LiveSocket> open = ConcurrentHashMap.newKeySet();

    void add(LiveSocket socket) {
        open.add(socket);
    }

    void remove(LiveSocket socket) {
        open.remove(socket);
    }

    int count() {
        return open.size();
    }

    void closeAll(int code, String reason) {
        open.forEach(socket -> socket.close(code, reason));
    }
}
