package dev.pigeonhole.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** How to run one kind of server, for {@link ServerProcess}: what to run, how to know it is up, how to stop it. */
public interface ServerRecipe {

    /** The program's name, for messages, the directory and the log: {@code redis-server}. */
    String name();

    /** The command that runs the server on {@code port} of 127.0.0.1, keeping its files in {@code dir}. */
    List<String> command(int port, Path dir);

    /** Whether the server this process started answers on {@code port} yet, or another one does. */
    Readiness probe(int port, long pid, Path dir);

    /**
     * Commands run to their end once, in order, in the new directory and as the server's user,
     * before the server first starts (making its data, its certificates); none by default.
     */
    default List<List<String>> preparation(Path dir) {
        return List.of();
    }

    /** The offsets from the server's port of more ports it binds, which must be free too. */
    default List<Integer> alsoFree() {
        return List.of();
    }

    /** The signal that stops it without waiting for its clients to leave. */
    default Signal stopSignal() {
        return Signal.TERM;
    }

    /** The user it runs as when the JVM is root, for a server that refuses to run as root. */
    default Optional<String> userWhenRoot() {
        return Optional.empty();
    }

    default Duration startTimeout() {
        return Duration.ofSeconds(20);
    }

    /** What a probe of a starting server found. */
    enum Readiness {
        /** Nothing answers yet, or the server is still starting. */
        NOT_YET,
        /** This process's server answers. */
        READY,
        /** Another process's server answers on the port: it was taken between the probe and the bind. */
        SOMEONE_ELSE
    }

    /** How a server is asked to stop. */
    enum Signal {
        TERM, INT
    }
}
