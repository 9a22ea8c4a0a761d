package dev.pigeonhole.app;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One run of the command line inside the test's JVM, as {@link Main#main} runs it but with its own
 * environment: what it printed and its exit status. A run that does not end within its limit
 * (a server that started when it should have refused) fails the test.
 */
record CommandRun(int status, String out, String err) {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    /** {@code args} with only {@code env} as the environment, none of the build's. */
    static CommandRun of(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = assertTimeoutPreemptively(LIMIT, () -> Main.run(args,
                        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                        env::get),
                () -> String.join(" ", args) + " did not finish: it started, or hung");
        return new CommandRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    List<String> errLines() {
        return err.strip().lines().toList();
    }

    /** The line {@code pigeonhole config} printed for {@code key}. */
    String line(String key) {
        return out.lines().filter(line -> line.startsWith(key + " = ")).findFirst()
                .orElseThrow(() -> new AssertionError("no line for " + key + " in:\n" + out));
    }

    /** A loopback port nothing listens on: probed free, then let go. */
    static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
