package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.UserId;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live connections open on this server, over either transport: for the sessions gauges, to
 * end them all when the server stops, and to hold each user to {@code maxPerUser} of them, so a
 * script cannot make the server keep thousands of feeds for one token. Which chats each follows
 * is the domain's business.
 */
final class LiveConnections {

    /** One client's live connection, whatever carries it. */
    interface Connection {

        /** Whose it is: what the per-user bound counts. */
        UserId user();

        /** The server is stopping: end the connection the way its transport says so. */
        void stop();

        /** True for a Server-Sent Events stream, false for a WebSocket. */
        boolean isEventStream();
    }

    private final int maxPerUser;
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final Map<UserId, Integer> perUser = new ConcurrentHashMap<>();

    LiveConnections(int maxPerUser) {
        this.maxPerUser = maxPerUser;
    }

    /** Throws the 429 problem if {@code user} holds every connection it may; to refuse before the upgrade. */
    void refuseIfFull(UserId user) {
        if (perUser.getOrDefault(user, 0) >= maxPerUser) {
            throw tooMany(user);
        }
    }

    /**
     * Counts a connection that is opening; throws the 429 problem, counting nothing, if its user
     * already holds every connection it may. Each one counted must be {@link #remove}d once.
     */
    void add(Connection connection) {
        boolean[] counted = {false};
        perUser.compute(connection.user(), (user, held) -> {
            int now = held == null ? 0 : held;
            if (now >= maxPerUser) {
                return held;
            }
            counted[0] = true;
            return now + 1;
        });
        if (!counted[0]) {
            throw tooMany(connection.user());
        }
        open.add(connection);
    }

    /** Frees the connection's place; harmless for one not counted, or removed already. */
    void remove(Connection connection) {
        if (open.remove(connection)) {
            perUser.computeIfPresent(connection.user(), (user, held) -> held <= 1 ? null : held - 1);
        }
    }

    int count() {
        return open.size();
    }

    int eventStreams() {
        return (int) open.stream().filter(Connection::isEventStream).count();
    }

    void stopAll() {
        open.forEach(Connection::stop);
    }

    private Problem tooMany(UserId user) {
        return Problem.of(429, "too-many-live-connections", "Too many live connections",
                "user '" + user.value() + "' already holds " + maxPerUser + " live connections (WebSocket and "
                        + "event stream together) on this server, the most one user may; close one first");
    }
}
