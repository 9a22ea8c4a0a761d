package dev.pigeonhole.app;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code pigeonhole serve} in a JVM of its own, as an operator runs it: for what no server inside
 * the test's JVM can show (its log from the very first line, its exit status, a real SIGTERM). It
 * listens on a port it picks itself ({@code --port 0}) and names in its start-up line, so no other
 * process can take the port between a probe and the start. It is owned by its {@link Process}
 * handle alone: {@link #process()}{@code .destroy()} is SIGTERM, and closing kills what is left.
 */
final class ServeProcess implements AutoCloseable {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final Pattern LISTENING = Pattern.compile("listening on http://[^:]+:(\\d+) ");

    private final Process process;
    private final int port;
    private final Path log;

    private ServeProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * {@code serve --store memory --port 0} and then {@code options}, which win over both; without
     * {@code --store memory} when the options name a store or a configuration file, which would
     * lose to that flag.
     */
    static ServeProcess start(String... options) throws IOException {
        Path log = Files.createTempFile("pigeonhole-serve-", ".log");
        List<String> command = new ArrayList<>(List.of(
                java(), "-cp", releaseClassPath(), Main.class.getName(), "serve", "--port", "0"));
        if (!List.of(options).contains("--store") && !List.of(options).contains("--config")) {
            command.addAll(List.of("--store", "memory"));
        }
        command.addAll(List.of(options));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
        // Whatever the shell running the build sets, only the options given here decide.
        builder.environment().keySet().removeIf(name -> name.startsWith("PIGEONHOLE_"));
        Process process = builder.start();
        try {
            return new ServeProcess(process, portFrom(process), log);
        } catch (RuntimeException e) {
            process.destroyForcibly();
            String written = Files.readString(log);
            Files.deleteIfExists(log);
            throw new AssertionError("serve did not start: " + e.getMessage() + "; it wrote:\n" + written, e);
        }
    }

    Process process() {
        return process;
    }

    int port() {
        return port;
    }

    /** What it wrote on standard error so far: its log. */
    String log() throws IOException {
        return Files.readString(log);
    }

    /** Its log, line by line, blank lines left out. */
    List<String> logLines() throws IOException {
        return Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(line -> !line.isBlank()).toList();
    }

    /** Sends SIGTERM and waits, bounded, for the process to end; answers whether it did. */
    boolean terminate() throws InterruptedException {
        process.destroy();
        return process.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException {
        process.destroyForcibly();
        try {
            process.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Files.deleteIfExists(log);
    }

    /** The java of the JDK this test runs on. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * This JVM's class path without the tests' classes and test-jars, one of which holds a
     * logback-test.xml that Logback would take over the application's logback.xml: the server runs
     * on what a release ships.
     */
    static String releaseClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.endsWith("test-classes") && !entry.endsWith("-tests.jar"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** Reads standard out up to the start-up line, which names the port; standard out then goes unread. */
    private static int portFrom(Process process) {
        CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    Matcher listening = LISTENING.matcher(line);
                    if (listening.find()) {
                        return Integer.parseInt(listening.group(1));
                    }
                }
                throw new IllegalStateException("serve ended without saying where it listens");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            return port.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("serve did not say where it listens within " + PATIENCE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for serve to start");
        }
    }
}
