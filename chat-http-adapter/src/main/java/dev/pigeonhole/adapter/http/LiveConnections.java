package dev.pigeonhole.adapter.http;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live connections open on this server, over either transport: for the sessions gauges, and
 * to end them all when the server stops. Which chats each follows is the domain's business.
 */
final class LiveConnections {

    /** One client's live connection, whatever carries it. */
    interface Connection {

        /** The server is stopping: end the connection the way its transport says so. */
        void stop();

        /** True for a Server-Sent Events stream, false for a WebSocket. */
        boolean isEventStream();
    }

    private final Set<Connection> open = ConcurrentHashMap.newKeySet();

    void add(Connection connection) {
        open.add(connection);
    }

    void remove(Connection connection) {
        open.remove(connection);
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
}
