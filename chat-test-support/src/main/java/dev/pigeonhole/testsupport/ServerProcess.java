package dev.pigeonhole.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One server a fixture started: a program listening on a free port of 127.0.0.1, in a temporary
 * directory of its own, where its output is kept for the message of a start that fails.
 *
 * <p>It is owned through its {@link Process} handle alone: stopping it signals that handle's
 * process, never one found by a pid file or by its name, so builds running side by side on one
 * machine cannot stop each other's servers. A hook stops it, and deletes its directory, when the
 * JVM exits without having closed it.
 *
 * <p>A server that refuses to run as root ({@link ServerRecipe#userWhenRoot()}) runs, when the JVM is
 * root (as CI is), as that unprivileged user through {@code setpriv}, which becomes the user and
 * then <em>is</em> the program (it execs, it does not fork), so the handle held is still the
 * server's own. Its directory is handed to that user first.
 */
public final class ServerProcess implements AutoCloseable {

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final int START_ATTEMPTS = 10;
    private static final int LOG_LINES = 20;
    private static final boolean ROOT = runningAsRoot();

    private final ServerRecipe recipe;
    private final Path dir;
    private final Optional<String> user;
    private final Thread stopAtExit;
    private int port;
    private Process process;
    private boolean closed;

    private ServerProcess(ServerRecipe recipe, Path dir, Optional<String> user) {
        this.recipe = recipe;
        this.dir = dir;
        this.user = user;
        this.stopAtExit = new Thread(this::stopAndClean, recipe.name() + "-stopper");
    }

    /**
     * Creates the server's directory, runs the recipe's preparation, and starts the server on a
     * free loopback port, trying other ports when another process takes the probed one first.
     * Returns once the server answers and is known to be this one.
     */
    public static ServerProcess start(ServerRecipe recipe) {
        Optional<String> user = ROOT ? recipe.userWhenRoot() : Optional.empty();
        ServerProcess server = new ServerProcess(recipe, createDir(recipe.name(), user), user);
        try {
            server.prepare();
            PortTakenException taken = null;
            for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
                try {
                    server.launch(LoopbackPorts.free(recipe.alsoFree()));
                    Runtime.getRuntime().addShutdownHook(server.stopAtExit);
                    return server;
                } catch (PortTakenException e) {
                    taken = e;
                }
            }
            throw new IllegalStateException("could not start " + recipe.name() + " on a free port after "
                    + START_ATTEMPTS + " attempts", taken);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    /** The server's own directory, where its preparation left what it made; deleted when it closes. */
    public Path dir() {
        return dir;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Kills the server the way a crash would (SIGKILL: no shutdown, no goodbye to its clients); its files stay. */
    public synchronized void kill() {
        Process running = process;
        process = null;
        if (running != null) {
            running.destroyForcibly();
            awaitExit(running);
        }
    }

    /** Stops the server with its stop signal, and SIGKILL if it lingers; its files and its port stay for {@link #restart}. */
    public synchronized void stop() {
        Process running = process;
        process = null;
        if (running != null) {
            halt(running);
        }
    }

    /**
     * Freezes the server (SIGSTOP): its sockets stay open, so its peers still count it connected,
     * but it reads and answers nothing, as a machine that stalls it would. {@link #thaw} lets it
     * go on; closing a frozen server thaws it first.
     */
    public synchronized void freeze() {
        signal(running("freeze"), "STOP");
    }

    /** Lets a {@link #freeze frozen} server go on (SIGCONT); harmless on one that is not. */
    public synchronized void thaw() {
        signal(running("thaw"), "CONT");
    }

    private Process running(String action) {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("cannot " + action + " " + recipe.name() + " on port " + port + ": it is not running");
        }
        return process;
    }

    /** Starts the server again on its files and its port, stopping it first if it runs; waits while the port is still held. */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException(recipe.name() + " on port " + port + " was closed; start a new one");
        }
        stop();
        long deadline = System.nanoTime() + recipe.startTimeout().toNanos();
        while (true) {
            try {
                launch(port);
                return;
            } catch (PortTakenException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("port " + port + " stayed taken; cannot restart " + recipe.name(), e);
                }
                pause();
            }
        }
    }

    /** Stops the server for good and deletes its directory. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // The JVM is exiting, and the hook runs by itself; or it was never registered.
        }
        stopAndClean();
    }

    @Override
    public String toString() {
        return recipe.name() + " on 127.0.0.1:" + port + (isRunning() ? "" : " (stopped)");
    }

    private synchronized void stopAndClean() {
        stop();
        deleteRecursively(dir);
    }

    private void prepare() {
        for (List<String> step : recipe.preparation(dir)) {
            run(step);
        }
    }

    /** One command of the preparation; its output is appended to a log named after the program. */
    private void run(List<String> step) {
        List<String> command = asUser(step);
        Path log = dir.resolve(Path.of(step.getFirst()).getFileName() + ".log");
        long logStart = sizeOf(log);
        try {
            Process prepared = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!prepared.waitFor(recipe.startTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                prepared.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within "
                        + recipe.startTimeout().toSeconds() + " s:\n" + tail(log, logStart));
            }
            if (prepared.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + prepared.exitValue()
                        + ":\n" + tail(log, logStart));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + command.getFirst() + " ran", e);
        }
    }

    /*
     * An answer on the port is not enough: if another process bound it first, this server exits
     * and the probe reaches the other one. The recipe's probe tells them apart by process id.
     */
    private void launch(int candidate) {
        List<String> command = asUser(recipe.command(candidate, dir));
        Path log = dir.resolve(recipe.name() + ".log");
        long logStart = sizeOf(log);
        Process started;
        try {
            started = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        }
        long deadline = System.nanoTime() + recipe.startTimeout().toNanos();
        while (true) {
            if (!started.isAlive()) {
                String output = tail(log, logStart);
                if (output.contains("Address already in use")) {
                    throw new PortTakenException(candidate, output);
                }
                throw new IllegalStateException(recipe.name() + " exited with " + started.exitValue() + " on port "
                        + candidate + ":\n" + output);
            }
            switch (recipe.probe(candidate, started.pid(), dir)) {
                case READY -> {
                    port = candidate;
                    process = started;
                    return;
                }
                case SOMEONE_ELSE -> {
                    started.destroyForcibly();
                    awaitExit(started);
                    throw new PortTakenException(candidate, "another " + recipe.name() + " answers on it");
                }
                case NOT_YET -> {
                    if (System.nanoTime() > deadline) {
                        started.destroyForcibly();
                        awaitExit(started);
                        throw new IllegalStateException(recipe.name() + " on port " + candidate + " did not answer within "
                                + recipe.startTimeout().toSeconds() + " s:\n" + tail(log, logStart));
                    }
                    pause();
                }
            }
        }
    }

    private void halt(Process running) {
        // A frozen server must run again to hear its stop signal.
        signal(running, "CONT");
        if (recipe.stopSignal() == ServerRecipe.Signal.TERM) {
            running.destroy();
        } else {
            signal(running, recipe.stopSignal().name());
        }
        if (!awaitExit(running)) {
            running.destroyForcibly();
            awaitExit(running);
        }
    }

    /** Java sends SIGTERM and SIGKILL only; any other signal goes to the handle's own process id through kill(1). */
    private static void signal(Process running, String signal) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(running.pid())).start()
                    .waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (IOException e) {
            running.destroy();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running.destroy();
        }
    }

    private List<String> asUser(List<String> command) {
        if (user.isEmpty()) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("setpriv", "--reuid=" + user.get(), "--regid=" + user.get(),
                "--clear-groups", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    private static boolean awaitExit(Process running) {
        try {
            return running.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !running.isAlive();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a server", e);
        }
    }

    private static boolean runningAsRoot() {
        try {
            Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
            String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            id.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return uid.equals("0");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A fresh directory; handed to {@code user}, when there is one, who must own what the server keeps in it. */
    private static Path createDir(String name, Optional<String> user) {
        Path dir;
        try {
            dir = Files.createTempDirectory("pigeonhole-" + name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for " + name, e);
        }
        if (user.isPresent()) {
            try {
                Process chown = new ProcessBuilder("chown", user.get() + ":" + user.get(), dir.toString())
                        .redirectErrorStream(true).start();
                String output = new String(chown.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (chown.waitFor() != 0) {
                    deleteRecursively(dir);
                    throw new IllegalStateException("as root, " + name + " must run as the '" + user.get()
                            + "' system user, but " + dir + " could not be handed to it (its distribution's package "
                            + "creates the user): " + output.strip());
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot hand " + dir + " to " + user.get(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while preparing " + dir, e);
            }
        }
        return dir;
    }

    private static long sizeOf(Path log) {
        try {
            return Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** The last lines written from {@code from} on, so that an earlier run's complaint is not taken for this one's. */
    private static String tail(Path log, long from) {
        try {
            byte[] bytes = Files.readAllBytes(log);
            int start = (int) Math.min(from, bytes.length);
            List<String> lines = new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8).lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_LINES), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // Best effort: a leftover directory under the temporary folder is harmless.
        }
    }

    private static final class PortTakenException extends IllegalStateException {
        PortTakenException(int port, String detail) {
            super("port " + port + " is taken: " + detail);
        }
    }
}
