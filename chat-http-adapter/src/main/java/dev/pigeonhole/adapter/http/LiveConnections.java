package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The live connections open on this server, by user, so that a chat created, joined or left
 * through HTTP reaches the sockets of the users it concerns at once.
 */
final class LiveConnections {

    private final ConcurrentHashMap<UserId, Set<LiveSocket>> byUser = new ConcurrentHashMap<>();

    void add(LiveSocket socket) {
        byUser.computeIfAbsent(socket.user(), user -> ConcurrentHashMap.newKeySet()).add(socket);
    }

    void remove(LiveSocket socket) {
        byUser.computeIfPresent(socket.user(), (user, sockets) -> {
            sockets.remove(socket);
            return sockets.isEmpty() ? null : sockets;
        });
    }

    void follow(UserId user, ChatId chat) {
        each(user, socket -> socket.follow(chat));
    }

    void unfollow(UserId user, ChatId chat) {
        each(user, socket -> socket.unfollow(chat));
    }

    int count() {
        return byUser.values().stream().mapToInt(Set::size).sum();
    }

    void closeAll(int code, String reason) {
        byUser.values().forEach(sockets -> sockets.forEach(socket -> socket.close(code, reason)));
    }

    private void each(UserId user, Consumer<LiveSocket> action) {
        Set<LiveSocket> sockets = byUser.get(user);
        if (sockets != null) {
            sockets.forEach(action);
        }
    }
}
