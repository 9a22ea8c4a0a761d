package dev.pigeonhole.adapter.redis.lettuce;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback proxy in front of one Redis that forwards every connection both ways until it is
 * armed; then the next bytes a client sends are answered with a TCP reset (a close with a zero
 * linger) instead of being forwarded, as a crashed server or a middlebox would answer.
 */
final class ResettingProxy implements AutoCloseable {

    private final ServerSocket server;
    private final String redisHost;
    private final int redisPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean armed;

    ResettingProxy(String redisHost, int redisPort) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.redisHost = redisHost;
        this.redisPort = redisPort;
        Thread.ofVirtual().start(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    /** From now on, a client that sends anything is reset. */
    void arm() {
        armed = true;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket redis = new Socket(redisHost, redisPort);
                sockets.add(client);
                sockets.add(redis);
                Thread.ofVirtual().start(() -> toRedis(client, redis));
                Thread.ofVirtual().start(() -> pump(redis, client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void toRedis(Socket client, Socket redis) {
        byte[] buffer = new byte[8192];
        try (InputStream in = client.getInputStream(); OutputStream out = redis.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                if (armed) {
                    client.setSoLinger(true, 0);
                    client.close();
                    redis.close();
                    return;
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // either side went away: so does the other
        }
        closeQuietly(client);
        closeQuietly(redis);
    }

    private static void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // either side went away: so does the other
        }
        closeQuietly(from);
        closeQuietly(to);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }
}
