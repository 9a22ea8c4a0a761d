package dev.pigeonhole.benchmarks.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the connections benchmark reads of the server's side: its memory and CPU time from
 * {@code /proc} and {@code jcmd}, which need its process id and the same machine, and the sockets
 * it counts as open, from {@code /metrics}. Anything it cannot read is absent, not zero.
 */
final class ServerProbe {

    /** Linux's USER_HZ, which /proc reports CPU time in; 100 on every common build. */
    private static final long CLOCK_TICKS_PER_SECOND = 100;
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    private static final Pattern LIVE_SESSIONS = Pattern.compile("(?m)^pigeonhole_live_sessions\\S*\\s+(\\S+)$");

    private final Optional<Long> serverPid;
    private final URI url;
    private final HttpClient http;

    ServerProbe(Optional<Long> serverPid, URI url, HttpClient http) {
        this.serverPid = serverPid;
        this.url = url;
        this.http = http;
    }

    record Memory(OptionalLong rssBytes, OptionalLong heapBytes) {
    }

    /** After a full collection, so that garbage of the setup is not counted as the sockets'. */
    Memory memory() {
        if (serverPid.isEmpty()) {
            return new Memory(OptionalLong.empty(), OptionalLong.empty());
        }
        long pid = serverPid.get();
        OptionalLong heap = OptionalLong.empty();
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (Files.isExecutable(jcmd)) {
            jcmd(jcmd, pid, "GC.run");
            Matcher used = HEAP_USED.matcher(jcmd(jcmd, pid, "GC.heap_info"));
            if (used.find()) {
                heap = OptionalLong.of(Long.parseLong(used.group(1)) * 1024);
            }
        }
        OptionalLong rss = OptionalLong.empty();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = OptionalLong.of(Long.parseLong(line.replaceAll("\\D", "")) * 1024);
                }
            }
        } catch (IOException e) {
            System.err.println("cannot read the server's memory: " + e);
        }
        return new Memory(rss, heap);
    }

    /**
     * The server's CPU time so far (user and system, from {@code /proc/<pid>/stat}): what a connect
     * costs the server whatever else the machine is busy with, where the rate depends on that too.
     */
    OptionalLong serverCpuMillis() {
        if (serverPid.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + serverPid.get() + "/stat"));
            // Fields after the command name, which is in parentheses and may hold spaces.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return OptionalLong.of(ticks * 1000 / CLOCK_TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    static long clientCpuMillis() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(0L);
    }

    private static String jcmd(Path jcmd, long pid, String command) {
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** What the server itself counts as open, from {@code /metrics}: proof the sockets are the server's too. */
    OptionalLong liveSessions() {
        try {
            HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(url + "/metrics"))
                    .timeout(ServerApi.CALL_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = LIVE_SESSIONS.matcher(metrics.body());
            return m.find() ? OptionalLong.of((long) Double.parseDouble(m.group(1))) : OptionalLong.empty();
        } catch (IOException e) {
            return OptionalLong.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
    }
}
