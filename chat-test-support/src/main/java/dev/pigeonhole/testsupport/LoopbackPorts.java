package dev.pigeonhole.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Ports of 127.0.0.1 for the servers the fixtures start, and for tests of a server that is not there. */
public final class LoopbackPorts {

    /*
     * Candidates stay below Linux's ephemeral range (32768 and up), where an outgoing connection
     * could take a port between the probe and the bind, and so does a candidate plus any offset
     * asked for (a Redis Cluster node's bus is its port + 10000).
     */
    private static final int LOWEST = 12000;
    private static final int SPAN = 10000;
    private static final int ATTEMPTS = 1000;

    private LoopbackPorts() {
    }

    /**
     * A port that was free when probed, with the port at each of {@code alsoFree}'s offsets from it.
     * Another process may still take it before the caller binds it: starting a server on it is
     * tried again on another port when that happens ({@link ServerProcess}).
     */
    public static int free(List<Integer> alsoFree) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int candidate = LOWEST + ThreadLocalRandom.current().nextInt(SPAN);
            if (isFree(candidate) && alsoFree.stream().allMatch(offset -> isFree(candidate + offset))) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free loopback port found between " + LOWEST + " and " + (LOWEST + SPAN));
    }

    /**
     * A port where nothing listens, for a test of what a client does when its server is down. It
     * was free when probed; nothing here will bind it.
     */
    public static int unused() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot probe a free loopback port", e);
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
